package dev.lacewing.core.keyspace;

import java.util.Locale;

/** Redis's eight {@code maxmemory-policy} values: which keys may go, and how the victim is chosen. */
public enum EvictionPolicy {
    VOLATILE_LRU(true, Victim.LRU),
    VOLATILE_LFU(true, Victim.LFU),
    VOLATILE_RANDOM(true, Victim.RANDOM),
    VOLATILE_TTL(true, Victim.TTL),
    ALLKEYS_LRU(false, Victim.LRU),
    ALLKEYS_LFU(false, Victim.LFU),
    ALLKEYS_RANDOM(false, Victim.RANDOM),
    NOEVICTION(false, Victim.NONE);

    /** How a victim is picked among the candidates. */
    public enum Victim { LRU, LFU, RANDOM, TTL, NONE }

    private final boolean volatileOnly;
    private final Victim victim;

    EvictionPolicy(boolean volatileOnly, Victim victim) {
        this.volatileOnly = volatileOnly;
        this.victim = victim;
    }

    /** Only keys with an expiry are candidates. */
    public boolean volatileOnly() {
        return volatileOnly;
    }

    public Victim victim() {
        return victim;
    }

    /** Whether keys keep an LFU counter rather than an LRU clock (Redis's MAXMEMORY_FLAG_LFU). */
    public boolean lfu() {
        return victim == Victim.LFU;
    }

    /**
     * Redis's MAXMEMORY_FLAG_NO_SHARED_INTEGERS: under an LRU or LFU policy with a limit set, every
     * key needs its own access field, so small integers are not shared objects (OBJECT REFCOUNT).
     */
    public boolean sharesNoIntegers() {
        return victim == Victim.LRU || victim == Victim.LFU;
    }

    /** The name CONFIG GET and INFO reply: {@code allkeys-lru}. */
    public String redisName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The policy a setting value names (case-insensitive); IllegalArgumentException otherwise. */
    public static EvictionPolicy named(String name) {
        for (EvictionPolicy policy : values()) {
            if (policy.redisName().equalsIgnoreCase(name)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("argument(s) must be one of the following: volatile-lru, volatile-lfu, "
            + "volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction");
    }
}
