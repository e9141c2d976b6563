package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import dev.lacewing.it.resp.RespClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The stream family: entries, trimming, IDs and consumer groups, with no call that waits (no
 * BLOCK) and no reply that shows the clock. IDs are explicit or partial ({@code ms-*}) on the
 * shared keys, near each other so that calls meet, plus the edges: 0-0, 0-1, the largest ms,
 * the exhausted sequence 18446744073709551615 and malformed spellings. {@code *} goes only to
 * {@link #FUTURE}, a key no other family touches and whose IDs all lie centuries ahead, without
 * creating it (NOMKSTREAM), so that Redis and Lacewing both derive the next ID from the last one
 * and never from their clocks. Idle and delivery times are left out of the comparison (XPENDING's
 * extended form, XINFO CONSUMERS) and minimum idle times are 0 or an hour, far from any
 * threshold; XINFO STREAM's radix-tree-nodes, which counts the inner nodes of Redis's radix tree,
 * is not compared either.
 */
final class StreamCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "XADD", "XDEL", "XTRIM", "XRANGE", "XREVRANGE", "XLEN", "XSETID", "XGROUP", "XREADGROUP", "XACK",
        "XPENDING", "XCLAIM", "XAUTOCLAIM", "XREAD", "XINFO");
    /** The commands as drawn: writes that build streams and groups more often than the rest. */
    private static final List<String> DRAWN = List.of(
        "XADD", "XADD", "XADD", "XADD", "XDEL", "XTRIM", "XRANGE", "XREVRANGE", "XLEN", "XSETID", "XGROUP", "XGROUP",
        "XREADGROUP", "XREADGROUP", "XACK", "XPENDING", "XCLAIM", "XAUTOCLAIM", "XREAD", "XINFO");

    /** The one key that gets {@code *} IDs; every ID it holds is above any clock. */
    static final byte[] FUTURE = "{t}future-stream".getBytes(StandardCharsets.ISO_8859_1);
    private static final long FUTURE_MS = 9_000_000_000_000L;

    private static final String MAX = "18446744073709551615";
    private static final List<String> EDGE_IDS = List.of(
        "0-0", "0-1", "0", MAX + "-" + MAX, MAX + "-*", MAX + "-18446744073709551614", MAX, "18446744073709551616",
        "-1", "1-x", "", "1-18446744073709551616", "1.5", "-", "+", "$", ">");
    private static final List<String> GROUPS = List.of("g1", "g1", "g1", "g2", "g2", "g2", "nogroup");
    private static final List<String> CONSUMERS = List.of("alice", "bob", "carol");
    private static final List<String> FIELDS = List.of("f", "f", "f", "g", "12", "");

    private static final UnaryOperator<String> NO_RAX_NODES =
        reply -> reply.replaceFirst("radix-tree-nodes\r\n:\\d+", "radix-tree-nodes");

    @Override
    public String family() {
        return "streams";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(DRAWN);
        boolean future = draw.chance(command.equals("XADD") ? 0.35 : 0.2);
        Object key = future ? FUTURE : draw.key();
        return switch (command) {
            case "XADD" -> Call.exact(words(command, key, addOptions(draw, future), newId(draw, future),
                fieldsAndValues(draw)));
            case "XDEL" -> Call.exact(words(command, key, ids(draw, future, 1, 3)));
            case "XTRIM" -> Call.exact(words(command, key, trim(draw, future)));
            case "XRANGE" -> Call.exact(words(command, key, bound(draw, future, "-"), bound(draw, future, "+"),
                count(draw)));
            case "XREVRANGE" -> Call.exact(words(command, key, bound(draw, future, "+"), bound(draw, future, "-"),
                count(draw)));
            case "XLEN" -> Call.exact(command, key);
            case "XSETID" -> Call.exact(words(command, key, id(draw, future), setIdOptions(draw, future)));
            case "XGROUP" -> group(draw, key, future);
            case "XREADGROUP" -> Call.exact(words(command, draw.option("GROUP"), draw.pick(GROUPS),
                draw.pick(CONSUMERS), readOptions(draw, true), draw.option("STREAMS"), key,
                draw.chance(0.6) ? ">" : readId(draw, future)));
            case "XREAD" -> Call.exact(words(command, readOptions(draw, false), draw.option("STREAMS"), key,
                readId(draw, future)));
            case "XACK" -> Call.exact(words(command, key, draw.pick(GROUPS), ids(draw, future, 1, 3)));
            case "XPENDING" -> pending(draw, key, future);
            case "XCLAIM" -> Call.exact(words(command, key, draw.pick(GROUPS), draw.pick(CONSUMERS), minIdle(draw),
                ids(draw, future, 1, 3), claimOptions(draw, future)));
            case "XAUTOCLAIM" -> Call.exact(words(command, key, draw.pick(GROUPS), draw.pick(CONSUMERS),
                minIdle(draw), bound(draw, future, "0"), autoclaimOptions(draw)));
            case "XINFO" -> info(draw, key);
            default -> throw new IllegalStateException(command);
        };
    }

    /** An ID near the others: ms 1 to 8 (or FUTURE_MS + 1 to 8), seq 0 to 4; now and then an edge. */
    private static String id(Draw draw, boolean future) {
        if (!future && draw.chance(0.08)) {
            return draw.pick(EDGE_IDS);
        }
        long ms = (future ? FUTURE_MS : 0) + draw.between(1, 8);
        return draw.chance(0.15) ? Long.toString(ms) : ms + "-" + draw.between(0, 4);
    }

    private static List<Object> ids(Draw draw, boolean future, int min, int max) {
        List<Object> ids = new ArrayList<>();
        int count = draw.between(min, max);
        for (int i = 0; i < count; i++) {
            ids.add(id(draw, future));
        }
        return ids;
    }

    /** XADD's ID: explicit or {@code ms-*}; {@code *} only on FUTURE. */
    private static String newId(Draw draw, boolean future) {
        if (future && draw.chance(0.5)) {
            return "*";
        }
        if (draw.chance(0.25)) {
            return (future ? FUTURE_MS : 0) + draw.between(1, 8) + "-*";
        }
        return id(draw, future);
    }

    private static String bound(Draw draw, boolean future, String open) {
        if (draw.chance(0.3)) {
            return open;
        }
        String id = id(draw, future);
        return draw.chance(0.25) ? "(" + id : id;
    }

    private static List<Object> fieldsAndValues(Draw draw) {
        List<Object> words = new ArrayList<>();
        int pairs = draw.chance(0.8) ? 1 : draw.between(1, 3);
        for (int i = 0; i < pairs; i++) {
            words.add(draw.pick(FIELDS));
            words.add(draw.value());
        }
        if (draw.chance(0.03)) {
            words.remove(words.size() - 1);
        }
        return words;
    }

    private static List<Object> addOptions(Draw draw, boolean future) {
        List<Object> words = new ArrayList<>();
        if (future || draw.chance(0.1)) {
            words.add(draw.option("NOMKSTREAM"));
        }
        if (draw.chance(0.3)) {
            words.addAll(trim(draw, future));
        }
        return words;
    }

    /** MAXLEN or MINID, = or ~ or neither, and LIMIT now and then (an error without ~). */
    private static List<Object> trim(Draw draw, boolean future) {
        List<Object> words = new ArrayList<>();
        boolean maxlen = draw.chance(0.6);
        words.add(draw.option(maxlen ? "MAXLEN" : "MINID"));
        String operator = draw.pick("", "=", "~", "~");
        if (!operator.isEmpty()) {
            words.add(operator);
        }
        words.add(maxlen ? (draw.chance(0.9) ? Integer.toString(draw.between(0, 6)) : draw.pick("-1", "x", ""))
            : id(draw, future));
        if (draw.chance(operator.equals("~") ? 0.4 : 0.05)) {
            words.add(draw.option("LIMIT"));
            words.add(draw.chance(0.9) ? Integer.toString(draw.between(0, 5)) : draw.pick("-1", "x"));
        }
        if (draw.chance(0.02)) {
            words.add(draw.junk());
        }
        return words;
    }

    private static List<Object> count(Draw draw) {
        if (!draw.chance(0.4)) {
            return List.of();
        }
        return List.of(draw.option("COUNT"), draw.chance(0.9) ? Integer.toString(draw.between(0, 4))
            : draw.pick("-1", "x", "9223372036854775807"));
    }

    private static List<Object> setIdOptions(Draw draw, boolean future) {
        List<Object> words = new ArrayList<>();
        if (draw.chance(0.3)) {
            words.add(draw.option("ENTRIESADDED"));
            words.add(draw.chance(0.9) ? Integer.toString(draw.between(0, 12)) : draw.pick("-1", "x"));
        }
        if (draw.chance(0.3)) {
            words.add(draw.option("MAXDELETEDID"));
            words.add(id(draw, future));
        }
        return words;
    }

    private static Call group(Draw draw, Object key, boolean future) {
        String group = draw.pick(GROUPS);
        return switch (draw.pick("CREATE", "CREATE", "SETID", "CREATECONSUMER", "DELCONSUMER", "DESTROY")) {
            case "CREATE" -> Call.exact(words("XGROUP", draw.option("CREATE"), key, group, groupId(draw, future),
                !future && draw.chance(0.4) ? List.of(draw.option("MKSTREAM")) : List.of(), entriesRead(draw)));
            case "SETID" -> Call.exact(words("XGROUP", draw.option("SETID"), key, group, groupId(draw, future),
                entriesRead(draw)));
            case "CREATECONSUMER" -> Call.exact("XGROUP", draw.option("CREATECONSUMER"), key, group,
                draw.pick(CONSUMERS));
            case "DELCONSUMER" -> Call.exact("XGROUP", draw.option("DELCONSUMER"), key, group, draw.pick(CONSUMERS));
            default -> Call.exact("XGROUP", draw.option("DESTROY"), key, group);
        };
    }

    private static String groupId(Draw draw, boolean future) {
        return draw.chance(0.4) ? draw.pick("$", "0", "0-0") : id(draw, future);
    }

    private static List<Object> entriesRead(Draw draw) {
        if (!draw.chance(0.2)) {
            return List.of();
        }
        return List.of(draw.option("ENTRIESREAD"), draw.chance(0.9) ? Integer.toString(draw.between(-1, 10))
            : draw.pick("-2", "x"));
    }

    /** COUNT and, for XREADGROUP, NOACK; never BLOCK. */
    private static List<Object> readOptions(Draw draw, boolean group) {
        List<List<Object>> options = new ArrayList<>();
        if (draw.chance(0.4)) {
            options.add(List.of(draw.option("COUNT"), draw.chance(0.9) ? Integer.toString(draw.between(0, 3))
                : draw.pick("-1", "x")));
        }
        if (group && draw.chance(0.2)) {
            options.add(List.of(draw.option("NOACK")));
        }
        List<Object> words = new ArrayList<>();
        draw.shuffled(options).forEach(words::addAll);
        return words;
    }

    private static String readId(Draw draw, boolean future) {
        return draw.chance(0.3) ? draw.pick("0", "0-0", "$") : id(draw, future);
    }

    private static String minIdle(Draw draw) {
        return draw.chance(0.85) ? "0" : draw.pick("3600000", "-1", "x");
    }

    /** XCLAIM's options with no time in them but IDLE and TIME far in the past; JUSTID mostly. */
    private static List<Object> claimOptions(Draw draw, boolean future) {
        List<List<Object>> options = new ArrayList<>();
        if (draw.chance(0.5)) {
            options.add(List.of(draw.option("JUSTID")));
        }
        if (draw.chance(0.15)) {
            options.add(List.of(draw.option("FORCE")));
        }
        if (draw.chance(0.1)) {
            options.add(List.of(draw.option("RETRYCOUNT"), Integer.toString(draw.between(0, 5))));
        }
        if (draw.chance(0.05)) {
            options.add(List.of(draw.option("IDLE"), draw.pick("100000000", "0")));
        }
        if (draw.chance(0.05)) {
            options.add(List.of(draw.option("TIME"), "1"));
        }
        if (draw.chance(0.1)) {
            options.add(List.of(draw.option("LASTID"), id(draw, future)));
        }
        List<Object> words = new ArrayList<>();
        draw.shuffled(options).forEach(words::addAll);
        return words;
    }

    private static List<Object> autoclaimOptions(Draw draw) {
        List<Object> words = new ArrayList<>();
        if (draw.chance(0.5)) {
            words.add(draw.option("COUNT"));
            words.add(draw.chance(0.9) ? Integer.toString(draw.between(1, 4)) : draw.pick("0", "-1", "x"));
        }
        if (draw.chance(0.5)) {
            words.add(draw.option("JUSTID"));
        }
        return words;
    }

    /** XPENDING: the summary exactly, the extended form with the idle times left out. */
    private static Call pending(Draw draw, Object key, boolean future) {
        String group = draw.pick(GROUPS);
        if (draw.chance(0.35)) {
            return Call.exact("XPENDING", key, group);
        }
        List<Object> idle = draw.chance(0.3) ? List.of(draw.option("IDLE"), draw.pick("0", "3600000")) : List.of();
        List<Object> consumer = draw.chance(0.3) ? List.of(draw.pick(CONSUMERS)) : List.of();
        return Call.of(ReplyCheck.normalized(StreamCommandsGenerator::withoutIdleTimes), words("XPENDING", key, group,
            idle, bound(draw, future, "-"), bound(draw, future, "+"),
            draw.chance(0.95) ? Integer.toString(draw.between(0, 5)) : draw.pick("-1", "x"), consumer));
    }

    /** An extended XPENDING's entries, [id, consumer, idle, deliveries], with the idle time as 0. */
    private static String withoutIdleTimes(String reply) {
        if (!reply.startsWith("*") || reply.startsWith("*-1")) {
            return reply;
        }
        List<String> entries = new ArrayList<>();
        for (String entry : RespClient.elements(reply)) {
            List<String> fields = entry.startsWith("*") && !entry.startsWith("*-1")
                ? new ArrayList<>(RespClient.elements(entry)) : null;
            if (fields != null && fields.size() == 4) {
                fields.set(2, ":0\r\n");
                entries.add(RespClient.aggregate('*', fields));
            } else {
                entries.add(entry);
            }
        }
        return RespClient.aggregate('*', entries);
    }

    /** XINFO STREAM (radix-tree-nodes aside) and GROUPS; CONSUMERS by shape, its idle times vary. */
    private static Call info(Draw draw, Object key) {
        return switch (draw.pick("STREAM", "STREAM", "GROUPS", "CONSUMERS")) {
            case "STREAM" -> Call.of(ReplyCheck.normalized(NO_RAX_NODES), "XINFO", draw.option("STREAM"), key);
            case "GROUPS" -> Call.exact("XINFO", draw.option("GROUPS"), key);
            default -> Call.of(ReplyCheck.normalized(ReplyCheck.SHAPE), "XINFO", draw.option("CONSUMERS"), key,
                draw.pick(GROUPS));
        };
    }
}
