package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The pub/sub family: a seeded random scenario over {@value #CONNECTIONS} connections, as steps
 * that each name the connection that sends them. Subscribers in RESP2 and RESP3 (each connection
 * starts in one and may switch with HELLO) subscribe to channels, patterns and shard channels and
 * leave them, with and without arguments; any connection publishes, asks PUBSUB, pings, resets,
 * quits, or sends a command its subscribed state refuses; keyspace notifications are switched
 * with CONFIG SET notify-keyspace-events to random flags while the other families' calls
 * ({@code writes}) change keys; now and then a block of MULTI, publishes and writes, EXEC, whose
 * messages come in the order its commands ran.
 *
 * <p>Client-side caching: connections switch CLIENT TRACKING on (with REDIRECT to another
 * connection, which in RESP2 subscribes to {@code __redis__:invalidate}, BCAST with PREFIXes,
 * OPTIN or OPTOUT and CLIENT CACHING, NOLOOP, and the combinations Redis refuses) and off, read
 * keys and write them; now and then a step sets a key to expire in 25 ms, {@link #WAIT}s
 * past its expiry and touches it, so the key's invalidation and its {@code expired} event come in
 * that step whether the read or the active expiry deleted it. A connection named in a request is
 * written {@code {client:N}} and the replay puts each server's id for connection N there.
 *
 * <p>Channels, patterns and messages come from small pools so that subscriptions meet publishes:
 * glob edge cases ({@code ?}, classes, negation, an escaped {@code *}, an unclosed {@code [}),
 * binary and empty names, the keyspace and keyevent channels.
 */
final class PubSubScenario {

    /** Connections 0 to 3 mostly subscribe; 4 mostly publishes and writes; any may do either. */
    static final int CONNECTIONS = 5;
    private static final int PUBLISHER = 4;

    /** Whether scenarios draw client-side caching steps (on unless {@code -Ddifferential.pubsub.tracking=false}). */
    static final boolean TRACKING = Boolean.parseBoolean(System.getProperty("differential.pubsub.tracking", "true"));

    /** Inside a step: the replay waits {@value #WAIT_MILLIS} ms before sending the calls after it. */
    static final Call WAIT = Call.exact("(wait)");
    static final long WAIT_MILLIS = 50;

    /** One step: calls sent on one connection, whose replies and every connection's pushes are compared after it. */
    record Step(int connection, List<Call> calls) {
    }

    private static final List<Object> CHANNELS = List.of(
        "ch1", "ch2", "{t}ch", "news.sport", "news.weather", "hello", "hallo", "*", "", new byte[] {0, (byte) 0xff},
        "__keyspace@0__:a", "__keyspace@0__:{t}x", "__keyevent@0__:set", "__keyevent@0__:del",
        "__keyevent@0__:expire", "__keyevent@0__:keymiss", "__keyevent@0__:new", "__keyevent@1__:set",
        "__keyevent@0__:expired", "__keyevent@0__:evicted", "__keyspace@0__:b", "__redis__:invalidate");

    private static final List<Object> PATTERNS = List.of(
        "*", "ch*", "ch?", "ch[12]", "h[^e]llo", "h[a-e]llo", "\\*", "news.*", "news.[sw]*", "[", "*ch*",
        "__keyspace@0__:*", "__keyevent@0__:*", "__key*__:*", "__keyevent@*__:s*", "", new byte[] {0, '*'});

    private static final List<Object> SHARD_CHANNELS = List.of("s1", "s2", "{t}s", "ch1", "");

    /**
     * notify-keyspace-events values: each class alone with K or E, the usual mixes. No invalid one:
     * after a refused CONFIG SET, redis-server 7.0.15 restores its value from its string form, which
     * drops n, and stops sending {@code new}, where Lacewing keeps it (issue 18).
     */
    private static final List<String> NOTIFY = List.of(
        "", "KEA", "KA", "EA", "KEAmn", "Kg", "E$", "Kl", "Es", "Kh", "Ez", "Kx", "Ee", "Kt", "Em", "Ed", "En",
        "KEgn", "g$", "AKE", "Ex", "KEx", "Ke");

    /** BCAST prefixes: overlapping ones (refused together), the empty one, and ones no key has. */
    private static final List<Object> PREFIXES = List.of("a", "k:", "k", "{t}", "", "b", "zz");

    private final List<CommandGenerator> writes;

    /** {@code writes}: the other families' generators, whose calls change keys (and so notify). */
    PubSubScenario(List<CommandGenerator> writes) {
        this.writes = Families.wrapped(writes, g -> !(g instanceof TransactionCommandsGenerator)
            && !(g instanceof ConnectionCommandsGenerator) && !(g instanceof ForeignTypeFixtureGenerator));
    }

    /** The steps of the scenario of {@code seed}: the first switch some connections to RESP3. */
    List<Step> generate(long seed, int length) {
        Draw draw = new Draw(seed);
        List<Step> steps = new ArrayList<>(length);
        for (int connection = 0; connection < CONNECTIONS; connection++) {
            if (connection % 2 == 1 || connection == PUBLISHER && draw.chance(0.5)) {
                steps.add(new Step(connection, List.of(Call.exact("HELLO", "3"))));
            }
        }
        while (steps.size() < length) {
            steps.add(next(draw));
        }
        return List.copyOf(steps.subList(0, length));
    }

    private Step next(Draw draw) {
        int connection = draw.chance(0.35) ? PUBLISHER : draw.below(CONNECTIONS);
        int kind = draw.below(TRACKING ? 118 : 100);
        if (kind < 30) {
            return new Step(connection, List.of(subscription(draw)));
        }
        if (kind < 50) {
            return new Step(connection, List.of(publish(draw)));
        }
        if (kind < 58) {
            return new Step(connection, List.of(introspection(draw)));
        }
        if (kind < 63) {
            return new Step(connection, List.of(Call.exact("CONFIG", "SET", "notify-keyspace-events",
                draw.pick(NOTIFY))));
        }
        if (kind < 80) {
            return new Step(connection, List.of(write(draw)));
        }
        if (kind < 84) {
            return new Step(connection, transaction(draw));
        }
        if (kind >= 100) {
            return new Step(connection, tracking(draw, connection, kind - 100));
        }
        return new Step(connection, List.of(switch (draw.below(8)) {
            case 0, 1 -> Call.exact("PING");
            case 2 -> Call.exact("PING", draw.value());
            case 3 -> Call.exact("HELLO", draw.pick("2", "3"));
            case 4 -> Call.exact("RESET");
            case 5 -> Call.exact("QUIT");
            case 6 -> Call.exact("GET", draw.key());
            default -> Call.exact("ECHO", draw.value());
        }));
    }

    private static Call subscription(Draw draw) {
        return switch (draw.below(9)) {
            case 0, 1 -> Call.exact(words("SUBSCRIBE", some(draw, CHANNELS, 1, 3)));
            case 2 -> Call.exact(words("UNSUBSCRIBE", some(draw, CHANNELS, 0, 2)));
            case 3, 4 -> Call.exact(words("PSUBSCRIBE", some(draw, PATTERNS, 1, 3)));
            case 5 -> Call.exact(words("PUNSUBSCRIBE", some(draw, PATTERNS, 0, 2)));
            case 6, 7 -> Call.exact(words("SSUBSCRIBE", some(draw, SHARD_CHANNELS, 1, 2)));
            default -> Call.exact(words("SUNSUBSCRIBE", some(draw, SHARD_CHANNELS, 0, 2)));
        };
    }

    private static Call publish(Draw draw) {
        return draw.chance(0.75) ? Call.exact("PUBLISH", draw.pick(CHANNELS), draw.value())
            : Call.exact("SPUBLISH", draw.pick(SHARD_CHANNELS), draw.value());
    }

    private static final ReplyCheck SORTED = ReplyCheck.normalized(ReplyCheck.SORTED);

    private static Call introspection(Draw draw) {
        return switch (draw.below(8)) {
            case 0 -> Call.of(SORTED, "PUBSUB", "CHANNELS");
            case 1 -> Call.of(SORTED, "PUBSUB", "CHANNELS", draw.pick(PATTERNS));
            case 2 -> Call.exact(words("PUBSUB", "NUMSUB", some(draw, CHANNELS, 0, 3)));
            case 3 -> Call.exact("PUBSUB", "NUMPAT");
            case 4 -> Call.of(SORTED, words("PUBSUB", "SHARDCHANNELS", some(draw, PATTERNS, 0, 1)));
            case 5 -> Call.exact(words("PUBSUB", "SHARDNUMSUB", some(draw, SHARD_CHANNELS, 0, 3)));
            case 6 -> Call.exact("PUBSUB", draw.pick("NUMPAT", "CHANNELS", "FOO"), draw.junk());
            default -> Call.exact("PUBSUB", draw.pick("FOO", "numpat", "HELP"));
        };
    }

    private Call write(Draw draw) {
        Call call;
        do {
            int at = draw.below(writes.size());
            call = writes.get(at).next(draw);
        } while (call.fixture());
        return call;
    }

    /** MULTI, publishes and writes whose replies compare exactly, then EXEC (or DISCARD now and then). */
    private List<Call> transaction(Draw draw) {
        List<Call> calls = new ArrayList<>();
        calls.add(Call.exact("MULTI"));
        int queued = draw.between(1, 4);
        for (int i = 0; i < queued; i++) {
            Call call;
            do {
                call = draw.chance(0.5) ? publish(draw) : write(draw);
            } while (call.check() != ReplyCheck.EXACT);
            calls.add(call);
        }
        calls.add(Call.exact(draw.chance(0.9) ? "EXEC" : "DISCARD"));
        return calls;
    }

    /** Client-side caching: {@code kind} 0 to 17. */
    private List<Call> tracking(Draw draw, int connection, int kind) {
        if (kind < 5) {
            return List.of(trackingOn(draw, connection));
        }
        if (kind < 6) {
            return List.of(Call.exact("CLIENT", "TRACKING", draw.pick("OFF", "off", "ON", "maybe")));
        }
        if (kind < 8) {
            return List.of(Call.exact("CLIENT", "CACHING", draw.pick("YES", "NO", "yes", "maybe")));
        }
        if (kind < 9) {
            return List.of(Call.exact("CLIENT", draw.pick("GETREDIR", "TRACKINGINFO")));
        }
        if (kind < 10) {
            return List.of(Call.exact("SUBSCRIBE", "__redis__:invalidate"));
        }
        if (kind < 14) {
            return List.of(read(draw));
        }
        if (kind < 15) {
            return List.of(Call.exact("CLIENT", "CACHING", "YES"), read(draw));
        }
        return expiring(draw);
    }

    /** CLIENT TRACKING ON with options, mostly valid, the combinations Redis refuses now and then. */
    private static Call trackingOn(Draw draw, int connection) {
        List<Object> words = new ArrayList<>(List.of("CLIENT", "TRACKING", "ON"));
        if (draw.chance(0.5)) {
            int target = draw.chance(0.9) ? (connection + 1 + draw.below(CONNECTIONS - 1)) % CONNECTIONS : connection;
            words.addAll(List.of("REDIRECT", draw.chance(0.95) ? "{client:" + target + "}" : "999999"));
        }
        boolean broadcast = draw.chance(0.35);
        if (broadcast) {
            words.add("BCAST");
        }
        if (broadcast || draw.chance(0.05)) {
            for (int i = draw.between(0, 2); i > 0; i--) {
                words.addAll(List.of("PREFIX", draw.pick(PREFIXES)));
            }
        }
        if (draw.chance(broadcast ? 0.05 : 0.4)) {
            words.add(draw.pick("OPTIN", "OPTOUT", "optin"));
        }
        if (draw.chance(0.3)) {
            words.add("NOLOOP");
        }
        return Call.exact(words.toArray());
    }

    /** A read of one or a few keys, which tracking records (even a miss). */
    private static Call read(Draw draw) {
        byte[] key = draw.key();
        return switch (draw.below(6)) {
            case 0, 1 -> Call.exact("GET", key);
            case 2 -> Call.exact(words("MGET", draw.keys(1, 3)));
            case 3 -> Call.exact("STRLEN", key);
            case 4 -> Call.exact("EXISTS", key);
            default -> Call.exact("TTL", key);
        };
    }

    /**
     * A key set to expire in 25 ms, a wait past it, and a read that touches it, all in one step: the expiry happens before the step's marker on both
     * servers, lazily or actively.
     */
    private static List<Call> expiring(Draw draw) {
        byte[] key = draw.key();
        Call expire = switch (draw.below(4)) {
            case 0, 1 -> Call.exact("SET", key, draw.value(), "PX", "25");
            case 2 -> Call.exact("PSETEX", key, "25", draw.value());
            default -> Call.exact("PEXPIRE", key, "25");
        };
        Call touch = switch (draw.below(5)) {
            case 0, 1 -> Call.exact("GET", key);
            case 2 -> Call.exact("PTTL", key);
            case 3 -> Call.exact("SET", key, draw.value());
            default -> Call.exact("EXISTS", key);
        };
        return draw.chance(0.3) ? List.of(read(draw), expire, WAIT, touch) : List.of(expire, WAIT, touch);
    }

    private static List<Object> some(Draw draw, List<Object> pool, int min, int max) {
        List<Object> picked = new ArrayList<>();
        int count = draw.between(min, max);
        for (int i = 0; i < count; i++) {
            picked.add(draw.pick(pool));
        }
        return picked;
    }
}
