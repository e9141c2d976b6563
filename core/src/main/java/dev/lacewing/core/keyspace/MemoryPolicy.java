package dev.lacewing.core.keyspace;

import dev.lacewing.api.Settings;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.storage.AccessPolicy;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The memory settings a keyspace obeys ({@code maxmemory}, {@code maxmemory-policy},
 * {@code maxmemory-samples}, {@code lfu-log-factor}, {@code lfu-decay-time},
 * {@code maxmemory-eviction-tenacity}) and the arithmetic
 * of the 24-bit access field every key carries, as Redis keeps it in each robj's {@code lru}:
 *
 * <ul>
 * <li>under an LRU (or random, ttl, noeviction) policy, the time of the last access in seconds,
 *     modulo 2^24 (Redis's LRU clock: wraps after 194 days);</li>
 * <li>under an LFU policy, {@code minutes:16 | counter:8}: a logarithmic access counter (new keys
 *     start at 5, each access increments it with probability 1 / ((counter - 5) * lfu-log-factor
 *     + 1)) and the time, in minutes modulo 2^16, it was last decremented; it loses one per
 *     {@code lfu-decay-time} minutes without access.</li>
 * </ul>
 *
 * A policy change does not rewrite the fields: as in Redis, keys read under the new meaning until
 * they are next accessed, which OBJECT FREQ's and IDLETIME's errors warn about.
 *
 * <p>Thread rule: settings are read from any thread and written by CONFIG SET (each a volatile
 * field, published on its own); the arithmetic is stateless.
 */
public final class MemoryPolicy implements AccessPolicy {

    /** Redis's LFU_INIT_VAL. */
    public static final int LFU_INITIAL = 5;
    private static final int LRU_CLOCK_MAX = (1 << 24) - 1;
    private static final int LRU_RESOLUTION_MILLIS = 1000;
    private static final int LFU_MINUTES_MAX = 65535;

    private volatile long maxmemory;
    private volatile EvictionPolicy policy = EvictionPolicy.NOEVICTION;
    private volatile int samples = 5;
    private volatile int lfuLogFactor = 10;
    private volatile int lfuDecayTime = 1;
    private volatile long evictionTimeLimitNanos = evictionTimeLimitNanos(10);

    /** Redis's defaults: no limit, noeviction, 5 samples, log factor 10, decay time 1. */
    public MemoryPolicy() {
    }

    /** The policy of a server's settings, kept up to date as CONFIG SET changes them. */
    public static MemoryPolicy of(Settings settings) {
        MemoryPolicy memory = snapshot(settings);
        settings.onChange(memory::set);
        return memory;
    }

    /** The policy of a server's settings as they are now, for one command (OBJECT) to decode with. */
    public static MemoryPolicy snapshot(Settings settings) {
        MemoryPolicy memory = new MemoryPolicy();
        for (String name : new String[] {"maxmemory", "maxmemory-policy", "maxmemory-samples", "lfu-log-factor",
            "lfu-decay-time", "maxmemory-eviction-tenacity"}) {
            settings.get(name).ifPresent(value -> memory.set(name, value));
        }
        return memory;
    }

    /** Takes a setting's normalized value; names it does not keep are ignored. */
    public void set(String name, String value) {
        switch (name) {
            case "maxmemory" -> maxmemory = Long.parseLong(value);
            case "maxmemory-policy" -> policy = EvictionPolicy.named(value);
            case "maxmemory-samples" -> samples = Integer.parseInt(value);
            case "lfu-log-factor" -> lfuLogFactor = Integer.parseInt(value);
            case "lfu-decay-time" -> lfuDecayTime = Integer.parseInt(value);
            case "maxmemory-eviction-tenacity" -> evictionTimeLimitNanos = evictionTimeLimitNanos(Integer.parseInt(value));
            default -> {
            }
        }
    }

    /** Bytes the keyspace may hold; 0 for no limit. */
    public long maxmemory() {
        return maxmemory;
    }

    public EvictionPolicy policy() {
        return policy;
    }

    /**
     * How long one eviction pass may run (a command's before it runs, CONFIG SET maxmemory's before it
     * replies, each run of a queued eviction task), checked every 16 keys; {@link Long#MAX_VALUE}
     * for no limit.
     */
    public long evictionTimeLimitNanos() {
        return evictionTimeLimitNanos;
    }

    /**
     * Redis's evictionTimeLimitUs for a maxmemory-eviction-tenacity (0-100): 50 µs per step up to the
     * default 10 (500 µs), then 15% more per step (about 2 minutes at 99), and no limit at 100.
     */
    static long evictionTimeLimitNanos(int tenacity) {
        if (tenacity <= 10) {
            return 50_000L * tenacity;
        }
        if (tenacity < 100) {
            return (long) (500.0 * Math.pow(1.15, tenacity - 10.0)) * 1000;
        }
        return Long.MAX_VALUE;
    }

    /** Keys sampled per database for each eviction, as maxmemory-samples. */
    public int samples() {
        return samples;
    }

    /**
     * Whether small integers are shared objects now, as Redis's canUseSharedObject decides when a
     * value is stored. The policy is read first: under most policies that one read decides.
     */
    public boolean sharesIntegers() {
        return !policy.sharesNoIntegers() || maxmemory == 0;
    }

    /**
     * The encoding a string stored whole gets now: {@link StringEncoding#UNSHARED} where small
     * integers are not shared, so that OBJECT REFCOUNT keeps the decision made at store time.
     */
    public StringEncoding storedWhole() {
        return sharesIntegers() ? StringEncoding.FROM_BYTES : StringEncoding.UNSHARED;
    }

    /* ---- the access field ---- */

    /** The field of a key created at {@code now}. */
    public int created(long now) {
        return policy.lfu() ? lfuMinutes(now) << 8 | LFU_INITIAL : lruClock(now);
    }

    /**
     * The field after an access at {@code now}: Redis's updateLFU (decay, then a logarithmic
     * increment) or the LRU clock.
     */
    public int accessed(int access, long now) {
        if (!policy.lfu()) {
            return lruClock(now);
        }
        int counter = frequency(access, now);
        if (counter < 255) {
            int base = Math.max(counter - LFU_INITIAL, 0);
            if (ThreadLocalRandom.current().nextDouble() < 1.0 / (base * lfuLogFactor + 1)) {
                counter++;
            }
        }
        return lfuMinutes(now) << 8 | counter;
    }

    /**
     * The field an overwritten key's new value starts with: Redis 7.0's dbSetValue keeps the old
     * value's LFU field (the overwrite follows a write lookup that counted as an access); under
     * LRU the new value is simply new.
     */
    public int overwritten(int oldAccess, long now) {
        return policy.lfu() ? accessed(oldAccess, now) : lruClock(now);
    }

    /**
     * The field RESTORE gives a key (objectSetLRUOrLFU): under an LFU policy {@code frequency} as the
     * counter, last decremented now; under any other policy the access {@code idleSeconds} ago on
     * the 24-bit clock, wrapped as the robj's 24-bit field wraps it in 7.0.15 (an idle time past
     * the clock's range reads back modulo 2^24). -1 when the policy's option was not given (-1):
     * the key keeps the field it was created with.
     */
    public int restored(long frequency, long idleSeconds, long now) {
        if (policy.lfu()) {
            return frequency < 0 ? -1 : lfuMinutes(now) << 8 | (int) frequency;
        }
        if (idleSeconds < 0) {
            return -1;
        }
        // The clock ticks once per second (LRU_RESOLUTION_MILLIS), so seconds are ticks.
        return (int) Math.floorMod(lruClock(now) - idleSeconds, (long) LRU_CLOCK_MAX + 1);
    }

    /** Milliseconds since the last access, under the LRU meaning (Redis's estimateObjectIdleTime). */
    public long idleMillis(int access, long now) {
        int clock = lruClock(now);
        long ticks = clock >= access ? clock - access : clock + (LRU_CLOCK_MAX - access);
        return ticks * LRU_RESOLUTION_MILLIS;
    }

    /** The decayed LFU counter (Redis's LFUDecrAndReturn), what OBJECT FREQ replies. */
    public int frequency(int access, long now) {
        int lastDecrement = access >>> 8;
        int counter = access & 255;
        int decayTime = lfuDecayTime;
        if (decayTime > 0) {
            int minutes = lfuMinutes(now);
            int elapsed = minutes >= lastDecrement ? minutes - lastDecrement : LFU_MINUTES_MAX - lastDecrement + minutes;
            int periods = elapsed / decayTime;
            counter = periods > counter ? 0 : counter - periods;
        }
        return counter;
    }

    /**
     * How good an eviction candidate a key is under {@code victim}, higher evicted first, as the
     * {@code idle} of Redis's eviction pool: idle time, 255 minus the frequency, or how soon it
     * expires.
     */
    public long evictionScore(EvictionPolicy.Victim victim, int access, long expireAt, long now) {
        return switch (victim) {
            case LRU -> idleMillis(access, now);
            case LFU -> 255 - frequency(access, now);
            case TTL -> Long.MAX_VALUE - expireAt;
            default -> 0;
        };
    }

    private static int lruClock(long now) {
        return (int) (now / LRU_RESOLUTION_MILLIS) & LRU_CLOCK_MAX;
    }

    private static int lfuMinutes(long now) {
        return (int) (now / 60_000) & LFU_MINUTES_MAX;
    }
}
