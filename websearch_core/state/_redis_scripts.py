"""The Lua scripts of the Redis state store, and the limits they are run with.

Each script is one atomic step on the server: a reservation that checks every budget and
counts, a reset that records its time and deletes what it covers, a write that is dropped
when it was made before a reset (:data:`RESET_CHECK`). They are kept here, apart from
:mod:`websearch_core.state.redis`, which sends them: the key layout and why the store is
built this way are in that module's docstring.

The module is private; only the Redis store uses it.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CLEAR_ALL_BATCH",
    "CLEAR_ALL_LUA",
    "CLEAR_ALL_ROUNDS",
    "CLEAR_LUA",
    "CLEAR_UNCHANGED_MARK_LUA",
    "FORGOTTEN",
    "INCREMENT_LUA",
    "INDEX_KEY",
    "MARKED",
    "MAX_WRITE_AGE_SECONDS",
    "MOVE_MARK_LUA",
    "RATE_LUA",
    "RATE_WAIT_LUA",
    "RECORD_FAILURE_LUA",
    "RECORD_RESET",
    "RELEASE_LUA",
    "RESET_CHECK",
    "RESET_KEPT_SECONDS",
    "SET_MARK_LUA",
    "SET_NOTE_LUA",
    "reserve_lua",
]

RESET_KEPT_SECONDS: Final = 86_400
"""How long a reset's time is kept (``{prefix}reset:{provider}``, ``{prefix}reset``): a day.

Why: the time is only read to drop a write made before the reset that reaches the server
after it (:data:`RESET_CHECK`), so it must outlive the longest such a write can be late.
Its caller waits for it :data:`~websearch_core.settings_limits.MAX_STATE_WAIT_SECONDS`
(60 s) at most within a search; given up on, it stays queued on the store's thread behind
calls each bounded by the socket timeout (5 s by default) but not in number, and outside a
search nothing bounds the wait. No limit in the code bounds that lateness, so the time is
kept far past the 60 s: a day covers some 17,000 stuck calls in a row, or a process
suspended for hours, for one small key per provider reset. A write later still is taken
as made before a reset and dropped (:data:`MAX_WRITE_AGE_SECONDS`). Never kept forever:
provider ids come and go.
"""

MAX_WRITE_AGE_SECONDS: Final = RESET_KEPT_SECONDS - 3_600
"""A write that waited in its process longer than this (23 hours) is dropped as made
before a reset (:data:`RESET_CHECK`), whether or not one happened.

Why: past :data:`RESET_KEPT_SECONDS` a reset's time is gone, and a write that old cannot
tell whether one came while it waited; it would bring back what a forgotten reset cleared.
What it carries is its own wait, on its process's monotonic clock, and the reset's time
is kept by the server's: two durations, no two machines' clocks compared. The hour short
of the day covers their rates differing (an NTP slew, 0.05% at most, some 43 s a day) and
the time on the wire and in the server's queue, which the wait does not count. What a
day-old write loses is a mark, a failure count, a note or an uncapped request's count made
a day ago: a provider's own answer gives a mark again, a failure count is gone after
``FAILURE_WINDOW`` (2 hours) anyway, and such a request is granted, only not counted. A
capped reservation and a rate slot still land whatever their age: they stand for requests
sent.
"""

FORGOTTEN: Final = -1
"""The wait a write passes when it is older than :data:`MAX_WRITE_AGE_SECONDS`."""


RESET_CHECK: Final = """
local function made_before_reset(provider_reset, every_reset, waited)
  if tonumber(waited) < 0 then return true end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = 0
  for _, key in ipairs({provider_reset, every_reset}) do
    local at = tonumber(redis.call('GET', key) or '0') or 0
    if at <= now and at > last then last = at end
  end
  return now - tonumber(waited) <= last
end
"""
"""A Lua function: whether a write was made at or before the provider's last reset.

Why: a cooldown mark, a failure count, a note or an uncapped request's count left queued on
the store's thread (behind a slow call, or given up on by its caller) was written once it
got there, after another process's ``websearch providers reset`` had cleared the provider:
the reset was followed by the state it had just cleared. SQLite drops these by the times it
keeps (``sqlite._reset_since``); this is the same rule, on the server's clock.

A reset stores the server's ``TIME`` (:data:`RECORD_RESET`, in the reset's own
script). A write passes how long it waited in this process between the call and the
script (``waited``, microseconds of the monotonic clock), so its time on the server's clock
is the script's ``TIME`` less that wait: no two machines' clocks are compared. The time on
the wire and in the server's queue is not counted, which only ever makes a write look
later: one made after a reset is never dropped. A reset the server's clock reads as in the
future (the clock stepped back since) is left out, as SQLite leaves it. A write older than
the reset times are kept passes :data:`FORGOTTEN` (-1) and is always dropped
(:data:`MAX_WRITE_AGE_SECONDS`).

A script, not ``WATCH``: the check reads the server's clock and two keys and must decide
with the write, atomically; ``WATCH`` would cost a read round trip before every write and a
retry whenever another process wrote the keys meanwhile, and could not read ``TIME``.
"""


INDEX_KEY: Final = """
local function server_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function index_keys(index, indexes, scored)
  redis.call('ZADD', index, unpack(scored))
  local gone_ms = server_ms() - 1000
  local gone = '(' .. string.format('%.0f', gone_ms)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', gone)
  local last = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
  if not last[2] then return end
  local index_end = tonumber(last[2]) + 1000
  redis.call('PEXPIREAT', index, string.format('%.0f', index_end))
  if tonumber(redis.call('ZSCORE', indexes, index) or '-1') == index_end then return end
  redis.call('ZADD', indexes, string.format('%.0f', index_end), index)
  redis.call('ZREMRANGEBYSCORE', indexes, '-inf', gone)
  local top = redis.call('ZRANGE', indexes, -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', indexes, string.format('%.0f', tonumber(top[2]) + 1000))
end
"""
"""A Lua function: note keys a script creates in the provider's key ``index``, and that
index in ``indexes``, the index of every provider's index (with ``server_ms``, the server's
clock in epoch milliseconds).

Every script that creates a provider's key indexes it here: usage counters, notes, the
failure counter and the rate booking (with its ``booked_at``). Marks have their own index
(``{prefix}marks``), written by the same script as the mark.

``scored`` is ``{expiry, key, expiry, key, ...}``, as ``ZADD`` takes them: one call, one
prune and one expiry however many keys a script creates.

Why: ``clear`` deletes what the index names in the script that records the reset, so a
key created just before a reset is gone with it (a ``SCAN`` before the reset missed one
made in between, and a ``SCAN`` in a script would walk a keyspace other data shares). The
key's score is its expiry (epoch ms, as ``PEXPIREAT`` set it), so the names of keys the
server has expired (a second ago, to stay clear of its own rounding) are dropped here, and
the index itself goes a second after its last key: it holds no more than the keys alive.
``indexes`` does the same one level up for ``clear_all`` (:data:`CLEAR_ALL_LUA`): each
index scored by its own expiry, pruned and expired the same way, so it holds no more than
the indexes alive, one per provider with a live indexed key. It is only written when
the index's expiry moved (a new period's counter), so a reservation against a counter that
exists costs one ``ZSCORE`` more.
"""


def reserve_lua(*, check_mark: bool) -> str:
    """The reservation script; with ``check_mark`` it first returns an existing mark.

    KEYS: with ``check_mark`` the provider's mark first; then the provider's reset time and
    every provider's, its key index and the index of indexes (:data:`INDEX_KEY`), the
    failure counter, then one usage counter per window. ARGV: how long the call waited
    (see :data:`RESET_CHECK`), then per window its limit (-1: none) and its expiry in
    epoch milliseconds. Returns ``{granted (1/0), failures, count per window}``, or
    ``{2, mark}`` (the stored mark, nothing counted) when the mark key exists.

    Without any limit, a request made before the provider's last reset is granted and not
    counted, as SQLite drops such a count when it writes it behind; with one, it is counted
    whatever its time: it was checked against that budget and sent.
    """
    head = "local mark = redis.call('GET', KEYS[1])\nif mark then return {2, mark} end\n"
    body = _RESERVE_BODY.replace("FIRST", "6" if check_mark else "5")
    return RESET_CHECK + INDEX_KEY + (head if check_mark else "") + body


_RESERVE_BODY: Final = """
local first = FIRST
local failures = tonumber(redis.call('GET', KEYS[first]) or '0') or 0
local found = {}
local refused = false
local capped = false
for i = first + 1, #KEYS do
  local j = i - first
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count == nil then return redis.error_reply('not a usage counter: ' .. KEYS[i]) end
  found[j] = count
  local limit = tonumber(ARGV[2 * j])
  if limit >= 0 then
    capped = true
    if count >= limit then refused = true end
  end
end
if refused then return {0, failures, unpack(found)} end
if not capped and made_before_reset(KEYS[first - 4], KEYS[first - 3], ARGV[1]) then
  return {1, failures, unpack(found)}
end
local counts = {}
local scored = {}
for i = first + 1, #KEYS do
  local j = i - first
  counts[j] = redis.call('INCR', KEYS[i])
  redis.call('PEXPIREAT', KEYS[i], ARGV[2 * j + 1])
  scored[2 * j - 1], scored[2 * j] = ARGV[2 * j + 1], KEYS[i]
end
index_keys(KEYS[first - 2], KEYS[first - 1], scored)
return {1, failures, unpack(counts)}
"""
MARKED: Final = 2
"""The first value of the reservation script's reply when it found a mark instead."""

# KEYS: usage counters. Gives one back to each that is above zero (the TTL is kept).
RELEASE_LUA: Final = """
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count ~= nil and count > 0 then redis.call('DECR', KEYS[i]) end
end
return 0
"""

# KEYS: a mark. ARGV: the mark as read, the mark moved after a clock step, its life in ms.
# Saves the moved mark unless another process replaced (or removed) the mark meanwhile.
MOVE_MARK_LUA: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 0
"""

# KEYS: a mark, the index of marked providers. ARGV: the mark as read, the provider id.
# Removes the mark only if it is still the one read (a compare-and-clear): a mark another
# process set since is kept.
CLEAR_UNCHANGED_MARK_LUA: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[2])
end
return 0
"""

# KEYS: the rate booking, the time it was made, the provider's key index, the index of
# indexes. ARGV: interval and max wait in microseconds. Returns the wait in microseconds,
# or -1 when it would exceed the max wait. A booking made after the server's "now" (its
# clock stepped back since) moves back by the step, as base.next_free_slot says; a booking
# without its time is taken as it is. Both keys are indexed (INDEX_KEY) for clear_all.
RATE_LUA: Final = (
    INDEX_KEY
    + """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local booked = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local made = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
if made > now then booked = booked - (made - now) end
local slot = math.max(now, booked)
local wait = slot - now
if wait > tonumber(ARGV[2]) then return -1 end
local next_at = slot + tonumber(ARGV[1])
local ends_ms = math.floor(now / 1000) + math.ceil((next_at - now) / 1000) + 1000
local ends = string.format('%.0f', ends_ms)
redis.call('SET', KEYS[1], string.format('%.0f', next_at), 'PXAT', ends)
redis.call('SET', KEYS[2], string.format('%.0f', now), 'PXAT', ends)
index_keys(KEYS[3], KEYS[4], {ends, KEYS[1], ends, KEYS[2]})
return wait
"""
)

# KEYS: a usage counter, the provider's key index, the index of indexes. ARGV: its expiry
# in epoch ms. Returns the count.
INCREMENT_LUA: Final = (
    INDEX_KEY
    + """
local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
index_keys(KEYS[2], KEYS[3], {ARGV[1], KEYS[1]})
return count
"""
)

RECORD_RESET: Final = """
local function record_reset(key, kept_ms)
  local t = redis.call('TIME')
  local at = string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))
  redis.call('SET', key, at, 'PX', kept_ms)
end
"""
"""A Lua function: store a reset's time (:data:`RESET_CHECK`), the server's clock in
microseconds, for ``kept_ms`` (:data:`RESET_KEPT_SECONDS`)."""


CLEAR_LUA: Final = (
    RECORD_RESET
    + """
record_reset(KEYS[1], ARGV[1])
local doomed = {KEYS[2]}
for i = 4, #KEYS do doomed[#doomed + 1] = KEYS[i] end
local usage, note = ARGV[3], ARGV[4]
for _, name in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if name:sub(1, #usage) == usage or name:sub(1, #note) == note then
    doomed[#doomed + 1] = name
  end
end
for start = 1, #doomed, 500 do
  redis.call('DEL', unpack(doomed, start, math.min(start + 499, #doomed)))
end
redis.call('SREM', KEYS[3], ARGV[2])
return 0
"""
)
"""``clear``'s one script: records the reset and deletes what was made before it.

KEYS: the provider's reset time, its key index (:data:`INDEX_KEY`), the mark index, then
the keys to delete by name (the mark, failure counter and rate keys, and the usage and
note keys a ``SCAN`` found). ARGV: how long the reset's time is kept (ms), the provider,
then the name prefixes of its usage and note keys.

Why one script: a key the index names when the reset is recorded is deleted with no
moment between, so a counter another process creates just before the reset (a new
period's first reservation) cannot survive it, and one created after sees the reset. Only
names under the provider's usage and note prefixes are deleted: the keyspace is shared, and
a corrupt or foreign index must not reach other data. The ``SCAN`` before it stays for
keys an older release wrote, which it did not index. Such a counter created between that
scan and this script is deleted too when it counts a window around now (the caller names
those counters: a month's or budget window's first request, the likely one); a note, or a
counter of another window, created then survives, as every key did before the index. The
scan cannot move in here: it walks the whole shared keyspace, and a script runs alone.
"""

CLEAR_ALL_BATCH: Final = 1000
"""The most keys ``clear_all``'s script deletes or unindexes in one run (:data:`CLEAR_ALL_LUA`).

Why 1,000: Redis runs a script alone, every other client waiting, so one that deletes an
unbounded number of keys would stall every process sharing the server. A run at the bound
(950 counters of 10 providers) took the server 0.46-0.60 ms (``SLOWLOG``, Redis 7.0, a
loaded 2-core machine; ``benchmarks/RESULTS.md``, stop 43 clearall): about one slow
command. The keys a setup keeps alive (a few counters and notes per provider, some tens of
providers) fit in one run, so they are deleted in the step that records the reset. The
``SCAN``'s deletes before it go 500 to a command, as they always did.

Over the bound, a reader between two runs sees some providers cleared and others not,
though each provider whole (a run takes a provider's keys all or not at all, bar one
alone over the bound). Not all or nothing across providers, on purpose: that needs a
generation ``clear_all`` bumps first and each key's generation beside it, read with it.
The counters are plain integers an older release reads and ``INCR`` counts, so the stamp
cannot go in the value. One stamp per provider keeps reads O(1) (three keys for one), but
must never expire (gone before a month's counter, it would make that counter read as
absent: a budget over-spent), and the first write to a provider after the bump must
delete its old keys in its own script (else they read as current once the stamp moves):
all that provider's keys, however many, inside a search's reservation. One stamp per key (a
sorted set beside the index) keeps writes O(1) too, but makes every read a transaction
of three commands and every key an older release writes, unstamped, read as absent after
the first bump. Either way an older release still sees the partial state, and every
script and read of the store changes, for a case only past 1,000 live keys.
"""

CLEAR_ALL_ROUNDS: Final = 1000
"""Runs of ``clear_all``'s script that delete a batch before one is told to finish anyway.

Only writers creating new keys faster than a run deletes them could keep the work above
:data:`CLEAR_ALL_BATCH` this long; then the last run takes what is left, so the reset
still ends."""

CLEAR_ALL_LUA: Final = (
    RECORD_RESET
    + """
local prefix, bound = ARGV[2], tonumber(ARGV[3])
local head = prefix .. 'index:'
local function provider_of(index)
  if index:sub(1, #head) == head then return index:sub(#head + 1) end
  return nil
end
local indexes = redis.call('ZRANGE', KEYS[2], 0, -1)
for i = 4, #KEYS do
  local listed = redis.call('ZSCORE', KEYS[2], KEYS[i])
  if not listed and redis.call('EXISTS', KEYS[i]) == 1 then indexes[#indexes + 1] = KEYS[i] end
end
local marked = redis.call('SMEMBERS', KEYS[3])
local pending = #marked
for _, index in ipairs(indexes) do
  pending = pending + 1
  if provider_of(index) then pending = pending + 4 + redis.call('ZCARD', index) end
end
local final = pending <= bound or ARGV[4] == '1'
local doomed, budget = {}, bound
if final then
  record_reset(KEYS[1], ARGV[1])
  doomed[1], doomed[2] = KEYS[2], KEYS[3]
  for _, provider in ipairs(marked) do doomed[#doomed + 1] = prefix .. 'mark:' .. provider end
end
local taken = 0
for _, index in ipairs(indexes) do
  if not final and budget <= 0 then break end
  local provider = provider_of(index)
  local whole = final or (provider and redis.call('ZCARD', index) + 5 <= budget)
  if provider and (whole or taken == 0) then
    taken = taken + 1
    local names = redis.call('ZRANGE', index, 0, final and -1 or budget - 1)
    local usage, note = prefix .. 'usage:' .. provider .. ':', prefix .. 'note:' .. provider .. ':'
    for _, name in ipairs(names) do
      if name:sub(1, #usage) == usage or name:sub(1, #note) == note then
        doomed[#doomed + 1] = name
      end
    end
    budget = budget - #names
    if not final and #names > 0 then redis.call('ZREMRANGEBYRANK', index, 0, #names - 1) end
    if final or redis.call('ZCARD', index) == 0 then
      local rate = prefix .. 'rate:' .. provider
      for _, name in ipairs({index, prefix .. 'mark:' .. provider,
                             prefix .. 'failures:' .. provider, rate, rate .. ':booked_at'}) do
        doomed[#doomed + 1] = name
      end
      budget = budget - 5
      if not final then
        redis.call('ZREM', KEYS[2], index)
        redis.call('SREM', KEYS[3], provider)
      end
    end
  elseif not provider and not final then
    redis.call('ZREM', KEYS[2], index)
    budget = budget - 1
  end
end
if not final then
  for _, provider in ipairs(marked) do
    if budget <= 0 then break end
    if redis.call('EXISTS', prefix .. 'index:' .. provider) == 0 then
      doomed[#doomed + 1] = prefix .. 'mark:' .. provider
      redis.call('SREM', KEYS[3], provider)
      budget = budget - 1
    end
  end
end
for start = 1, #doomed, 500 do
  redis.call('DEL', unpack(doomed, start, math.min(start + 499, #doomed)))
end
if final then return 0 end
return 1
"""
)
"""``clear_all``'s script: records every provider's reset and deletes what was made before it.

KEYS: every provider's reset time, the index of indexes (:data:`INDEX_KEY`), the mark
index, then key indexes a ``SCAN`` found (written by a release that kept no index of
them). ARGV: how long the reset's time is kept (ms), the key prefix, the most keys to
delete (:data:`CLEAR_ALL_BATCH`), and ``1`` to finish whatever is left. Returns ``0`` when
it recorded the reset, ``1`` when it only deleted a batch and must run again.

Why: as ``clear`` (:data:`CLEAR_LUA`) does for one provider, what every index names is
deleted in the script that records the reset, with every indexed provider's mark, failure
and rate keys and every marked provider's mark: a counter another process creates just
before the reset cannot survive it, and one created after sees it. When that is more than
the bound, a run deletes a batch (and takes its names out of the indexes) without
recording anything, and the next run looks again; deleting early is what the reset does
anyway, and a key re-created meanwhile is indexed again, so the last run, within the
bound, still finds it. A batch is whole providers (their indexed keys, mark, failure and
rate keys), so a reader between runs sees each provider as before or as after, never half
cleared; only a provider whose keys alone pass the bound is taken in parts, as the run's
first. Only names under a provider's own prefixes are deleted: the keyspace is shared and
a corrupt index must not reach other data.
"""

# KEYS: the provider's reset time, every provider's, the mark, the mark index. ARGV: the
# wait (:data:`RESET_CHECK`), the mark, its end in epoch ms, the provider. 1: written.
SET_MARK_LUA: Final = (
    RESET_CHECK
    + """
if made_before_reset(KEYS[1], KEYS[2], ARGV[1]) then return 0 end
redis.call('SET', KEYS[3], ARGV[2], 'PXAT', ARGV[3])
redis.call('SADD', KEYS[4], ARGV[4])
return 1
"""
)

# KEYS: the provider's reset time, every provider's, the failure counter, the provider's
# key index, the index of indexes. ARGV: the wait (:data:`RESET_CHECK`), FAILURE_WINDOW in
# ms. Returns the count, not counted again when the failure came before a reset (it was
# counted before, and the reset cleared it). The counter is indexed (INDEX_KEY).
RECORD_FAILURE_LUA: Final = (
    RESET_CHECK
    + INDEX_KEY
    + """
if made_before_reset(KEYS[1], KEYS[2], ARGV[1]) then
  return tonumber(redis.call('GET', KEYS[3]) or '0') or 0
end
local count = redis.call('INCR', KEYS[3])
local ends = string.format('%.0f', server_ms() + tonumber(ARGV[2]))
redis.call('PEXPIREAT', KEYS[3], ends)
index_keys(KEYS[4], KEYS[5], {ends, KEYS[3]})
return count
"""
)

# KEYS: the provider's reset time, every provider's, the note, the provider's key index,
# the index of indexes. ARGV: the wait (:data:`RESET_CHECK`), the note, its end in epoch
# ms. 1: written.
SET_NOTE_LUA: Final = (
    RESET_CHECK
    + INDEX_KEY
    + """
if made_before_reset(KEYS[1], KEYS[2], ARGV[1]) then return 0 end
redis.call('SET', KEYS[3], ARGV[2], 'PXAT', ARGV[3])
index_keys(KEYS[4], KEYS[5], {ARGV[3], KEYS[3]})
return 1
"""
)

RATE_WAIT_LUA: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local booked = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local made = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
if made > now then booked = booked - (made - now) end
return math.max(0, booked - now)
"""
"""The wait :data:`RATE_LUA` would give now, in microseconds, booking nothing."""
