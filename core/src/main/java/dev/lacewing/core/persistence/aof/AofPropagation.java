package dev.lacewing.core.persistence.aof;

import dev.lacewing.api.Arguments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a write command puts in the AOF, as Redis propagates it (the rewriteClientCommandVector and
 * alsoPropagate calls of t_string.c, expire.c, t_set.c, t_list.c, t_zset.c, t_stream.c, cluster.c):
 * a relative time becomes an absolute one (SET EX -> SET PXAT, SETEX -> SET PXAT, EXPIRE ->
 * PEXPIREAT, GETEX EX -> PEXPIREAT, RESTORE ttl -> RESTORE ABSTTL), and a result the replay could
 * not recompute is written as its effect, read from the reply (INCRBYFLOAT -> SET KEEPTTL,
 * HINCRBYFLOAT -> HSET, SPOP -> SREM, blocking and multi-key pops -> their one-key forms, XADD *
 * -> the ID it got). Everything else is written as the client sent it.
 *
 * <p>Only a write that changed something comes here, as Redis's call() propagates only when
 * server.dirty moved (the caller compares {@link dev.lacewing.core.keyspace.ThreadChanges}); keys
 * deleted by expiry and eviction are written by {@link AofDeletions}.
 *
 * <p>Stateless.
 */
public final class AofPropagation {

    /** The commands whose propagated form is read from their reply. */
    private static final Set<String> READS_REPLY = Set.of("set", "incrbyfloat", "hincrbyfloat", "spop", "blpop", "brpop",
        "brpoplpush", "blmove", "blmpop", "lmpop", "bzpopmin", "bzpopmax", "bzmpop", "zmpop", "xadd");

    private AofPropagation() {
    }

    /**
     * Writes propagated even when they changed no key (Redis's forceCommandPropagation for FLUSHDB
     * and FLUSHALL of empty databases; SWAPDB and the FUNCTION writes count in server.dirty but
     * change state the keyspace's counter does not see).
     */
    private static final Set<String> ALWAYS = Set.of("flushall", "flushdb", "swapdb", "function|load",
        "function|delete", "function|flush", "function|restore");

    /** Whether {@code command} (its table name) is propagated whether or not it changed a key. */
    public static boolean always(String command) {
        return ALWAYS.contains(command);
    }

    /**
     * Redis's alsoPropagate with preventCommandPropagation, from inside a running command's body:
     * {@code argv} is written in the command's place (after what it added before, each in
     * {@code database}); a command that calls it only with what changed. XREADGROUP, XCLAIM and
     * XAUTOCLAIM write their XCLAIMs and XGROUP SETID this way, XADD and XTRIM their rewritten
     * request (rewriteClientCommandArgument). Nothing outside a client's command or with the AOF
     * off.
     */
    public static void instead(int database, byte[]... argv) {
        AofBatch running = AofDeletions.running();
        if (running != null) {
            running.preventOwn();
            running.add(database, argv);
        }
    }

    /** preventCommandPropagation alone: the running command writes only what {@link #instead} gives. */
    public static void prevent() {
        AofBatch running = AofDeletions.running();
        if (running != null) {
            running.preventOwn();
        }
    }

    /** Whether the AOF takes what {@link #instead} gives: worth building the rewritten request. */
    public static boolean propagating() {
        return AofDeletions.running() != null;
    }

    /** Whether {@link #add} needs the command's reply. */
    public static boolean readsReply(String command) {
        return READS_REPLY.contains(command);
    }

    /**
     * Adds to {@code batch} what {@code command} (its table name, lower case) propagates, having
     * run with {@code args} in {@code database} at {@code now}; {@code reply}: the RESP reply it
     * wrote, asked only for the commands {@link #readsReply} names.
     */
    public static void add(AofBatch batch, int database, String command, Arguments args, long now,
                           Supplier<byte[]> reply) {
        if (batch.takeOwnPrevented()) {
            return;
        }
        byte[][] rewritten = switch (command) {
            case "set" -> set(args, now, reply);
            case "setex" -> expiring(args, now, 1000L);
            case "psetex" -> expiring(args, now, 1L);
            case "expire" -> expire(args, now, 1000L, false);
            case "pexpire" -> expire(args, now, 1L, false);
            case "expireat" -> expire(args, now, 1000L, true);
            case "getex" -> getex(args, now);
            case "restore" -> restore(args, now);
            default -> READS_REPLY.contains(command) ? fromReply(command, args, reply.get()) : null;
        };
        if (rewritten == null) {
            batch.add(database, args);
        } else if (rewritten.length > 0) {
            batch.add(database, rewritten);
        }
    }

    private static final byte[][] NOTHING = new byte[0][];

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] ascii(long number) {
        return ascii(Long.toString(number));
    }

    private static String upper(Arguments args, int index) {
        return args.string(index).toUpperCase(Locale.ROOT);
    }

    private static long number(Arguments args, int index) {
        return Long.parseLong(args.string(index));
    }

    private static byte[] copy(Arguments args, int index) {
        return java.util.Arrays.copyOfRange(args.array(), args.offset(index), args.offset(index) + args.length(index));
    }

    /**
     * SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL] with EX, PX or EXAT: SET key
     * value PXAT ms, as setGenericCommand rewrites it, and nothing when NX or XX kept it from
     * setting (read from the reply: nil without GET; with GET, a value under NX, nil under XX).
     */
    private static byte[][] set(Arguments args, long now, Supplier<byte[]> reply) {
        for (int i = 3; i + 1 < args.count(); i++) {
            String option = upper(args, i);
            long at;
            switch (option) {
                case "EX" -> at = now + number(args, i + 1) * 1000;
                case "PX" -> at = now + number(args, i + 1);
                case "EXAT" -> at = number(args, i + 1) * 1000;
                default -> {
                    continue;
                }
            }
            return setApplied(args, reply) ? new byte[][] {ascii("SET"), copy(args, 1), copy(args, 2), ascii("PXAT"),
                ascii(at)} : NOTHING;
        }
        return null;
    }

    private static boolean setApplied(Arguments args, Supplier<byte[]> reply) {
        boolean nx = false;
        boolean xx = false;
        boolean get = false;
        for (int i = 3; i < args.count(); i++) {
            switch (upper(args, i)) {
                case "NX" -> nx = true;
                case "XX" -> xx = true;
                case "GET" -> get = true;
                default -> {
                }
            }
        }
        if (!nx && !xx) {
            return true;
        }
        boolean nil = new ReplyReader(reply.get()).next() == null;
        return get ? nil == nx : !nil;
    }

    /** SETEX/PSETEX key time value -> SET key value PXAT ms. */
    private static byte[][] expiring(Arguments args, long now, long unit) {
        return new byte[][] {ascii("SET"), copy(args, 1), copy(args, 3), ascii("PXAT"),
            ascii(now + number(args, 2) * unit)};
    }

    /** EXPIRE, PEXPIRE, EXPIREAT key time [NX|XX|GT|LT] -> PEXPIREAT key ms [the same condition]. */
    private static byte[][] expire(Arguments args, long now, long unit, boolean absolute) {
        long at = (absolute ? 0 : now) + number(args, 2) * unit;
        byte[][] argv = new byte[args.count()][];
        argv[0] = ascii("PEXPIREAT");
        argv[1] = copy(args, 1);
        argv[2] = ascii(at);
        for (int i = 3; i < args.count(); i++) {
            argv[i] = copy(args, i);
        }
        return argv;
    }

    /** GETEX key EX|PX|EXAT|PXAT t -> PEXPIREAT; PERSIST -> PERSIST; no option changes nothing. */
    private static byte[][] getex(Arguments args, long now) {
        if (args.count() < 3) {
            return NOTHING;
        }
        String option = upper(args, 2);
        if (option.equals("PERSIST")) {
            return new byte[][] {ascii("PERSIST"), copy(args, 1)};
        }
        long time = number(args, 3);
        long at = switch (option) {
            case "EX" -> now + time * 1000;
            case "PX" -> now + time;
            case "EXAT" -> time * 1000;
            default -> time;
        };
        return new byte[][] {ascii("PEXPIREAT"), copy(args, 1), ascii(at)};
    }

    /** RESTORE key ttl payload [...] without ABSTTL and with a ttl: the ttl made absolute. */
    private static byte[][] restore(Arguments args, long now) {
        long ttl = number(args, 2);
        for (int i = 4; i < args.count(); i++) {
            if (upper(args, i).equals("ABSTTL")) {
                return null;
            }
        }
        if (ttl == 0) {
            return null;
        }
        byte[][] argv = new byte[args.count() + 1][];
        for (int j = 0; j < args.count(); j++) {
            argv[j] = copy(args, j);
        }
        argv[2] = ascii(now + ttl);
        argv[args.count()] = ascii("ABSTTL");
        return argv;
    }

    private static byte[][] fromReply(String command, Arguments args, byte[] reply) {
        Object value = new ReplyReader(reply).next();
        if (value == null || value instanceof ReplyReader.Error) {
            return NOTHING;
        }
        switch (command) {
            case "incrbyfloat":
                return new byte[][] {ascii("SET"), copy(args, 1), (byte[]) value, ascii("KEEPTTL")};
            case "hincrbyfloat":
                return new byte[][] {ascii("HSET"), copy(args, 1), copy(args, 2), (byte[]) value};
            case "spop":
                return removing("SREM", copy(args, 1), value instanceof List<?> list ? list : List.of(value));
            case "blpop":
            case "brpop": {
                List<?> pair = (List<?>) value;
                return new byte[][] {ascii(command.equals("blpop") ? "LPOP" : "RPOP"), (byte[]) pair.get(0)};
            }
            case "brpoplpush":
                return new byte[][] {ascii("RPOPLPUSH"), copy(args, 1), copy(args, 2)};
            case "blmove":
                return new byte[][] {ascii("LMOVE"), copy(args, 1), copy(args, 2), copy(args, 3), copy(args, 4)};
            case "blmpop":
            case "lmpop": {
                List<?> pair = (List<?>) value;
                boolean left = direction(args, command.equals("blmpop") ? 2 : 1).equals("LEFT");
                return new byte[][] {ascii(left ? "LPOP" : "RPOP"), (byte[]) pair.get(0),
                    ascii(((List<?>) pair.get(1)).size())};
            }
            case "bzpopmin":
            case "bzpopmax": {
                List<?> triple = (List<?>) value;
                return new byte[][] {ascii(command.equals("bzpopmin") ? "ZPOPMIN" : "ZPOPMAX"), (byte[]) triple.get(0)};
            }
            case "bzmpop":
            case "zmpop": {
                List<?> pair = (List<?>) value;
                boolean min = direction(args, command.equals("bzmpop") ? 2 : 1).equals("MIN");
                return new byte[][] {ascii(min ? "ZPOPMIN" : "ZPOPMAX"), (byte[]) pair.get(0),
                    ascii(((List<?>) pair.get(1)).size())};
            }
            case "xadd":
                return xadd(args, (byte[]) value);
            default:
                return null;
        }
    }

    /** The LEFT|RIGHT of [B]LMPOP, after its numkeys and keys; {@code numkeysAt}: where numkeys is. */
    private static String direction(Arguments args, int numkeysAt) {
        return upper(args, numkeysAt + 1 + (int) number(args, numkeysAt));
    }

    private static byte[][] removing(String command, byte[] key, List<?> members) {
        if (members.isEmpty()) {
            return NOTHING;
        }
        byte[][] argv = new byte[members.size() + 2][];
        argv[0] = ascii(command);
        argv[1] = key;
        for (int i = 0; i < members.size(); i++) {
            argv[i + 2] = (byte[]) members.get(i);
        }
        return argv;
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] id ...: an id with * as the one it got. */
    private static byte[][] xadd(Arguments args, byte[] id) {
        int i = 2;
        while (i < args.count()) {
            String option = upper(args, i);
            if (option.equals("NOMKSTREAM")) {
                i++;
            } else if (option.equals("MAXLEN") || option.equals("MINID")) {
                i++;
                String next = args.string(i);
                if (next.equals("=") || next.equals("~")) {
                    i++;
                }
                i++;
            } else if (option.equals("LIMIT")) {
                i += 2;
            } else {
                break;
            }
        }
        if (i >= args.count() || !args.string(i).contains("*")) {
            return null;
        }
        byte[][] argv = new byte[args.count()][];
        for (int j = 0; j < args.count(); j++) {
            argv[j] = copy(args, j);
        }
        argv[i] = id;
        return argv;
    }

    /** Just enough of RESP2 and RESP3 to read a reply back: bulk and simple strings as bytes, arrays as lists. */
    static final class ReplyReader {
        record Error(String message) {
        }

        private final byte[] bytes;
        private int at;

        ReplyReader(byte[] bytes) {
            this.bytes = bytes;
        }

        Object next() {
            if (at >= bytes.length) {
                return null;
            }
            byte type = bytes[at++];
            String line = line();
            switch (type) {
                case '+', ',', '(', ':', '#':
                    return ascii(line);
                case '-', '!':
                    return new Error(line);
                case '_':
                    return null;
                case '$', '=': {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    byte[] value = java.util.Arrays.copyOfRange(bytes, at, at + length);
                    at += length + 2;
                    return type == '=' ? java.util.Arrays.copyOfRange(value, 4, value.length) : value;
                }
                case '*', '~', '>', '%': {
                    int count = Integer.parseInt(line);
                    if (count < 0) {
                        return null;
                    }
                    if (type == '%') {
                        count *= 2;
                    }
                    List<Object> elements = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        elements.add(next());
                    }
                    return elements;
                }
                default:
                    return new Error("unexpected reply type " + (char) type);
            }
        }

        private String line() {
            int start = at;
            while (at < bytes.length && bytes[at] != '\r') {
                at++;
            }
            String line = new String(bytes, start, at - start, StandardCharsets.US_ASCII);
            at += 2;
            return line;
        }
    }
}
