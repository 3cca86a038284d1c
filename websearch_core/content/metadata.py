"""Cloud instance-metadata services: addresses no fetch reaches unless named one by one.

A metadata service hands whoever asks from inside the machine its cloud credentials (AWS's
``/latest/meta-data/iam/security-credentials/``, Google's service-account tokens, Azure's
managed identity tokens). ``allow_private_addresses=True`` opens loopback and private
networks for intranet use; an agent given it could still be talked by a page into fetching
one of these, so they stay refused unless ``allowed_networks`` lists the service's own
address (or a network inside it): a wide intranet network such as ``169.254.0.0/16`` or
``100.64.0.0/10`` does not open them.

The table is data from the clouds' own documentation: add a service here, not a check.
"""

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

__all__ = [
    "METADATA_SERVICES",
    "MetadataService",
    "metadata_advice",
    "metadata_host",
    "metadata_service",
    "opted_in",
    "service_addresses",
]

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class MetadataService:
    """One instance-metadata (or credentials) endpoint, as its cloud documents it.

    Attributes:
        clouds: Whose service it is, quoted in refusals so the reader knows what was hit.
        networks: Its addresses, as networks (single addresses are ``/32`` or ``/128``).
        hosts: The host names the cloud documents for it (lower case, no trailing dot).
    """

    clouds: str
    networks: tuple[str, ...]
    hosts: tuple[str, ...] = ()

    @property
    def parsed(self) -> tuple[IPNetwork, ...]:
        """:attr:`networks` parsed."""
        return tuple(ipaddress.ip_network(network) for network in self.networks)


METADATA_SERVICES: tuple[MetadataService, ...] = (
    MetadataService(
        "AWS, Azure, Google Cloud, OpenStack and others",
        ("169.254.169.254/32",),
        ("instance-data", "instance-data.ec2.internal", "metadata.azure.internal"),
    ),
    # fd20:ce::254: Google's own GoogleCloudPlatform/k8s-config-connector issue #5741 ("GCP's
    # IPv6 metadata address", for IPv6-only GKE clusters). Not found in the Compute Engine
    # pages searched ("About VM metadata" and "View and query VM metadata" name only
    # 169.254.169.254 and metadata.google.internal); kept, as it costs nothing to refuse.
    MetadataService(
        "Google Cloud",
        ("169.254.169.254/32", "fd20:ce::254/128"),
        ("metadata", "metadata.google.internal", "metadata.goog"),
    ),
    MetadataService("AWS EC2 over IPv6", ("fd00:ec2::254/128",)),
    MetadataService("AWS ECS task credentials", ("169.254.170.2/32",)),
    MetadataService("AWS EKS Pod Identity", ("169.254.170.23/32", "fd00:ec2::23/128")),
    MetadataService("Alibaba Cloud", ("100.100.100.200/32",)),
    # metadata.tencentyun.com: Tencent Cloud CVM "Querying Instance Metadata"
    # (tencentcloud.com/document/product/213/4934). 169.254.0.23 is the address that name
    # answers with inside CVM; Tencent's pages searched do not print it, but Datadog's
    # agent queries Tencent metadata at http://169.254.0.23 (pkg/util/tencent): kept.
    MetadataService("Tencent Cloud", ("169.254.0.23/32",), ("metadata.tencentyun.com",)),
    # fe80::a9fe:a9fe: OpenStack Nova "Metadata service" (docs.openstack.org/nova/latest/
    # admin/metadata-service.html): "Guests access the service at 169.254.169.254 or at
    # fe80::a9fe:a9fe", since Victoria (Nova 22.0.0).
    MetadataService("OpenStack over IPv6", ("fe80::a9fe:a9fe/128",)),
    # Scaleway Instance API, "User data" (scaleway.com/en/developers/api/instance/
    # user-data): the Metadata API at 169.254.42.42, or [fd00:42::42] over IPv6.
    MetadataService("Scaleway", ("169.254.42.42/32", "fd00:42::42/128")),
    # Akamai (Linode) "Access the Metadata service API" (techdocs.akamai.com/cloud-computing/
    # docs/access-the-metadata-service-api): 169.254.169.254 and fd00:a9fe:a9fe::1.
    MetadataService("Akamai (Linode) over IPv6", ("fd00:a9fe:a9fe::1/128",)),
    # IBM Cloud VPC Identity API, "Endpoint URLs" (cloud.ibm.com/apidocs/vpc-identity): the
    # Metadata service is http://169.254.169.254 or http://api.metadata.cloud.ibm.com; its
    # Identity API hands out IAM access tokens.
    MetadataService("IBM Cloud VPC", ("169.254.169.254/32",), ("api.metadata.cloud.ibm.com",)),
    # Microsoft "What is IP address 168.63.129.16?" (learn.microsoft.com/azure/
    # virtual-network/what-is-ip-address-168-63-129-16): the WireServer, the VM Agent's
    # channel to the Azure platform, the same public address in every region and cloud.
    MetadataService("Azure WireServer", ("168.63.129.16/32",)),
)
"""The services refused even with private addresses allowed.

Each entry's source is in the comment above it; the first and the AWS ones come from AWS
EC2 "Access instance metadata" (169.254.169.254, ``fd00:ec2::254``, ``instance-data``), ECS
"Task IAM role" (169.254.170.2) and EKS "Set up the Pod Identity Agent" (169.254.170.23,
``fd00:ec2::23``); Google Compute Engine "About VM metadata" (``metadata.google.internal``,
169.254.169.254); Azure "Instance Metadata Service" (169.254.169.254); DigitalOcean, Oracle
Cloud, Akamai and IBM Cloud metadata (169.254.169.254); Alibaba Cloud ECS "Instance
metadata" (100.100.100.200)."""


def metadata_service(ip: IPAddress) -> MetadataService | None:
    """The metadata service at ``ip`` (a plain address, not an IPv4-mapped one), if any.

    Example:
        >>> metadata_service(ipaddress.ip_address("100.100.100.200")).clouds
        'Alibaba Cloud'
        >>> metadata_service(ipaddress.ip_address("10.0.0.1")) is None
        True
    """
    for service in METADATA_SERVICES:
        if any(ip.version == net.version and ip in net for net in service.parsed):
            return service
    return None


def metadata_host(host: str) -> MetadataService | None:
    """The metadata service a host name is documented to reach, if any.

    Example:
        >>> metadata_host("Metadata.Google.Internal.").clouds
        'Google Cloud'
    """
    name = host.rstrip(".").lower()
    for service in METADATA_SERVICES:
        if name in service.hosts:
            return service
    return None


def opted_in(
    service: MetadataService, allowed: Iterable[IPNetwork], ip: IPAddress | None = None
) -> bool:
    """Whether ``allowed`` opens ``service`` (at ``ip``, when given) explicitly.

    Only an allowed network inside one of the service's own networks counts: the user named
    the metadata address itself, not a wider network that happens to hold it.

    Example:
        >>> alibaba = metadata_service(ipaddress.ip_address("100.100.100.200"))
        >>> opted_in(alibaba, [ipaddress.ip_network("100.100.100.200/32")])
        True
        >>> opted_in(alibaba, [ipaddress.ip_network("100.64.0.0/10")])
        False
    """
    for entry in allowed:
        if ip is not None and (ip.version != entry.version or ip not in entry):
            continue
        for network in service.parsed:
            if _inside(entry, network):
                return True
    return False


ALLOWED_NETWORKS_ADVICE = "in allowed_networks to allow it"
"""How a metadata refusal ends (:func:`metadata_advice`): ``websearch fetch``, which takes no
``allowed_networks``, says on a line of its own that it cannot."""


def metadata_advice(addresses: Iterable[str]) -> str:
    """The end of a metadata refusal: why ``allow_private_addresses`` is no help, and what is.

    Example:
        >>> metadata_advice(["169.254.169.254", "fd20:ce::254"]).split("; ")[1]
        'list 169.254.169.254 or fd20:ce::254 in allowed_networks to allow it'
    """
    listed = " or ".join(addresses)
    return f"refused even with allow_private_addresses; list {listed} {ALLOWED_NETWORKS_ADVICE}"


def service_addresses(service: MetadataService) -> list[str]:
    """The addresses of ``service`` as a user would list them (``169.254.169.254``)."""
    return [str(network.network_address) for network in service.parsed]


def _inside(entry: IPNetwork, network: IPNetwork) -> bool:
    """Whether ``entry`` lies inside ``network`` (of the same IP version)."""
    if isinstance(entry, ipaddress.IPv4Network) and isinstance(network, ipaddress.IPv4Network):
        return entry.subnet_of(network)
    if isinstance(entry, ipaddress.IPv6Network) and isinstance(network, ipaddress.IPv6Network):
        return entry.subnet_of(network)
    return False
