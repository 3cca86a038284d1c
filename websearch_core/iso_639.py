"""The ISO 639 language codes: what a ``lang:`` typed in a query may name.

``lang:go`` or ``lang:js`` has the shape of a language tag, yet a model typing it means
the programming language; a code checked against the standard's list stays a word
instead. Data only, a leaf module.

Source: ISO 639-1 and ISO 639-2 as the Debian ``iso-codes`` package lists them
(``/usr/share/iso-codes/json/iso_639-2.json``, the entries with an ``alpha_2`` code; ISO
639-2's registration authority is the Library of Congress: loc.gov/standards/iso639-2).
``bh`` (Bihari languages) is kept although ISO 639-1 withdrew it: it is still in that list.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["ISO_639_1", "ISO_639_2", "ISO_639_2_ONLY", "TWO_LETTER"]

ISO_639_1: Final = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu
    cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi
    ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks
    ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl
    nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl
    sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve
    vi vo wa wo xh yi yo za zh zu
    """.split()  # noqa: SIM905 (a table, one code a word)
)
"""The two-letter codes (184): ``go`` and ``js`` are not among them."""

ISO_639_2: Final = frozenset(
    """
    aar abk afr aka alb amh ara arg arm asm ava ave aym aze bak bam baq bel ben bih bis
    bod bos bre bul bur cat ces cha che chi chu chv cor cos cre cym cze dan deu div dut
    dzo ell eng epo est eus ewe fao fas fij fin fra fre fry ful geo ger gla gle glg glv
    gre grn guj hat hau heb her hin hmo hrv hun hye ibo ice ido iii iku ile ina ind ipk
    isl ita jav jpn kal kan kas kat kau kaz khm kik kin kir kom kon kor kua kur lao lat
    lav lim lin lit ltz lub lug mac mah mal mao mar may mkd mlg mlt mon mri msa mya nau
    nav nbl nde ndo nep nld nno nob nor nya oci oji ori orm oss pan per pli pol por pus
    que roh ron rum run rus sag san sin slk slo slv sme smo sna snd som sot spa sqi srd
    srp ssw sun swa swe tah tam tat tel tgk tgl tha tib tir ton tsn tso tuk tur twi uig
    ukr urd uzb ven vie vol wel wln wol xho yid yor zha zho zul
    """.split()  # noqa: SIM905 (a table, one code a word)
)
"""The three-letter codes (terminology and bibliographic, 204) of the languages with a
two-letter one: the ``language`` field takes three letters, so ``lang:deu`` is read; the
rest of ISO 639-2 is :data:`ISO_639_2_ONLY` or collections such as ``art`` (words)."""

ISO_639_2_ONLY: Final = frozenset(
    """
    ace ach ady afh ain akk ale alt ang anp arc arn arp arw ast awa bal ban bas bej bem
    bho bik bin bla bnt bra bua bug byn cad car ceb chb chg chk chm chn cho chp chr chy
    cnr cop cpe cpf cpp crh crp csb dak dar del den dgr din doi dsb dua dum dyu efi egy
    eka elx enm ewo fan fat fil fon frm fro frr frs fur gaa gay gba gez gil gmh goh gon
    gor got grb grc gsw gwi hai haw hil hit hmn hsb hup iba ilo inh jbo jpr jrb kaa kab
    kac kam kaw kbd kha kho kmb kok kos kpe krc krl kru kum kut lad lah lam lez lol loz
    lui lun luo lus mad mag mai mak man mas mdf mdr men mga mic min mnc mni moh mos mus
    mwl mwr myv nap nds new nia niu nog non nqo nso nwc nym nyn nyo nzi osa ota pag pal
    pam pap pau peo phn pon pro raj rap rar rom rup sad sah sai sam sas sat scn sco sel
    sga shn sid sma smj smn sms snk sog srn srr suk sus sux syc syr tem ter tet tig tiv
    tkl tlh tli tmh tog tpi tsi tum tvl tyv udm uga umb vai vot wal war was xal yao yap
    zap zbl zen zgh zun zza
    """.split()  # noqa: SIM905 (a table, one code a word)
)
"""The three-letter codes of single languages with no two-letter one (237: ``haw``
Hawaiian, ``ceb`` Cebuano, ``fil`` Filipino): the ``language`` field takes three letters,
so ``lang:haw`` is read; a provider whose parameter takes only two (``FilterSupport``'s
``two_letter_language``) records it as not applied. Left out, so they stay words: the
collections (entries named "... languages", ``art``, ``sla``), the special codes ``mis``,
``mul``, ``und``, ``zxx`` and the reserved ``qaa-qtz``, and ``ada`` and ``lua``, which in a
query mean the programming languages far more often than Adangme or Luba-Lulua."""

TWO_LETTER: Final[Mapping[str, str]] = MappingProxyType(
    dict(
        pair.split("=")
        for pair in """
    aar=aa abk=ab afr=af aka=ak alb=sq amh=am ara=ar arg=an arm=hy asm=as ava=av ave=ae
    aym=ay aze=az bak=ba bam=bm baq=eu bel=be ben=bn bih=bh bis=bi bod=bo bos=bs bre=br
    bul=bg bur=my cat=ca ces=cs cha=ch che=ce chi=zh chu=cu chv=cv cor=kw cos=co cre=cr
    cym=cy cze=cs dan=da deu=de div=dv dut=nl dzo=dz ell=el eng=en epo=eo est=et eus=eu
    ewe=ee fao=fo fas=fa fij=fj fin=fi fra=fr fre=fr fry=fy ful=ff geo=ka ger=de gla=gd
    gle=ga glg=gl glv=gv gre=el grn=gn guj=gu hat=ht hau=ha heb=he her=hz hin=hi hmo=ho
    hrv=hr hun=hu hye=hy ibo=ig ice=is ido=io iii=ii iku=iu ile=ie ina=ia ind=id ipk=ik
    isl=is ita=it jav=jv jpn=ja kal=kl kan=kn kas=ks kat=ka kau=kr kaz=kk khm=km kik=ki
    kin=rw kir=ky kom=kv kon=kg kor=ko kua=kj kur=ku lao=lo lat=la lav=lv lim=li lin=ln
    lit=lt ltz=lb lub=lu lug=lg mac=mk mah=mh mal=ml mao=mi mar=mr may=ms mkd=mk mlg=mg
    mlt=mt mon=mn mri=mi msa=ms mya=my nau=na nav=nv nbl=nr nde=nd ndo=ng nep=ne nld=nl
    nno=nn nob=nb nor=no nya=ny oci=oc oji=oj ori=or orm=om oss=os pan=pa per=fa pli=pi
    pol=pl por=pt pus=ps que=qu roh=rm ron=ro rum=ro run=rn rus=ru sag=sg san=sa sin=si
    slk=sk slo=sk slv=sl sme=se smo=sm sna=sn snd=sd som=so sot=st spa=es sqi=sq srd=sc
    srp=sr ssw=ss sun=su swa=sw swe=sv tah=ty tam=ta tat=tt tel=te tgk=tg tgl=tl tha=th
    tib=bo tir=ti ton=to tsn=tn tso=ts tuk=tk tur=tr twi=tw uig=ug ukr=uk urd=ur uzb=uz
    ven=ve vie=vi vol=vo wel=cy wln=wa wol=wo xho=xh yid=yi yor=yo zha=za zho=zh zul=zu
        """.split()  # noqa: SIM905 (a table, one pair a word)
    )
)
"""Each code of :data:`ISO_639_2` (``code=twin``) to its ISO 639-1 twin (``deu``, ``ger``:
``de``), from the same list: what a provider taking two letters is sent for ``lang:deu``."""
