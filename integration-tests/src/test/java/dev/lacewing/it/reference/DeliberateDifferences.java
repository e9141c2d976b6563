package dev.lacewing.it.reference;

import dev.lacewing.it.resp.RespClient;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The one list of replies in which Lacewing deliberately differs from redis-server 7.0, each
 * with its reason and how both replies are normalized before they are compared. Every test that
 * compares against the real redis-server (the scripted {@link ReferenceComparisonTest} and the
 * randomized differential test) applies this list, so a difference is justified once.
 */
public final class DeliberateDifferences {

    /** Replies that may differ, by the command words they start with, and how both are normalized first. */
    public record Difference(String command, String why, UnaryOperator<String> normalize) {

        public boolean appliesTo(String words) {
            String upper = words.toUpperCase(Locale.ROOT);
            return upper.equals(command) || upper.startsWith(command + " ");
        }
    }

    private static final UnaryOperator<String> IGNORE = reply -> reply.isEmpty() ? reply : reply.charAt(0) + "...";
    private static final UnaryOperator<String> MASK_INTEGERS = reply -> reply.replaceAll("(?md)^:\\d+\r$", ":N\r");
    private static final UnaryOperator<String> MASK_DIGITS = reply -> reply.replaceAll("\\d+", "N");
    /** Fields of CLIENT INFO / LIST that vary per connection; Lacewing's extra worker= field is dropped. */
    private static final UnaryOperator<String> CLIENT_FIELDS = reply -> reply
        .replaceAll("(?md)^([$=])\\d+\r$", "$1N\r")
        .replaceAll("\\b(id|addr|laddr|fd|age|idle|qbuf|qbuf-free|argv-mem|rbs|rbp|obl|oll|omem|tot-mem)=\\S*", "$1=*")
        .replace(" worker=0", "").replace(" worker=1", "");
    private static final UnaryOperator<String> HELLO_ID = reply -> reply.replaceAll("(\\$2\r\nid\r\n):\\d+", "$1:N");

    /** An array whose order is Redis's dict order: compared as a sorted list. */
    private static final UnaryOperator<String> SORTED = reply -> {
        Object parsed = RespClient.parse(reply);
        if (!(parsed instanceof List<?> elements)) {
            return reply;
        }
        return elements.stream().map(String::valueOf).sorted().toList().toString();
    };

    /**
     * Every double in a reply (a bulk string or a RESP3 double that is a non-integral number)
     * rewritten as the double it reads as, so that 7.0's {@code %.17g} digits ("0.10000000000000001")
     * and the shortest form ("0.1") compare equal while any other difference in value still shows.
     */
    private static final UnaryOperator<String> SAME_DOUBLES = reply -> {
        java.util.regex.Matcher matcher = java.util.regex.Pattern
            .compile("(?md)^(\\$\\d+\r\n|,)(-?(?:\\d+\\.\\d*|\\d*\\.\\d+|\\d+)(?:e[-+]?\\d+)?)\r$")
            .matcher(reply);
        StringBuilder normalized = new StringBuilder();
        while (matcher.find()) {
            String text = matcher.group(2);
            String value = text.matches("-?\\d+") ? text : Double.toString(Double.parseDouble(text));
            String prefix = matcher.group(1).equals(",") ? "," : "$" + value.length() + "\r\n";
            matcher.appendReplacement(normalized, java.util.regex.Matcher.quoteReplacement(prefix + value + "\r"));
        }
        matcher.appendTail(normalized);
        return normalized.toString();
    };

    /**
     * ACL rules with the single-command rules (those after +@all/-@all and the categories) of each
     * run sorted: Redis emits them in its command dict's order, which its random hash seed changes
     * from run to run.
     */
    private static final UnaryOperator<String> ACL_RULES_SORTED = reply -> {
        java.util.regex.Matcher matcher = java.util.regex.Pattern
            .compile("[+-](?!@)[^ \\r()]+(?: [+-](?!@)[^ \\r()]+)*").matcher(reply);
        StringBuilder normalized = new StringBuilder();
        while (matcher.find()) {
            List<String> rules = new java.util.ArrayList<>(List.of(matcher.group().split(" ")));
            java.util.Collections.sort(rules);
            matcher.appendReplacement(normalized, java.util.regex.Matcher.quoteReplacement(String.join(" ", rules)));
        }
        matcher.appendTail(normalized);
        return normalized.toString();
    };

    /** Commands that reply scores: Redis 7.0 prints them with %.17g, Lacewing in the shortest form. */
    private static final List<String> SCORE_REPLIES = List.of("ZSCORE", "ZMSCORE", "ZINCRBY", "ZADD", "ZRANGE",
        "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZREVRANGE", "ZPOPMIN", "ZPOPMAX", "ZMPOP", "BZPOPMIN", "BZPOPMAX",
        "BZMPOP", "ZRANDMEMBER", "ZUNION", "ZINTER", "ZDIFF", "ZSCAN");

    public static final List<Difference> LIST = java.util.stream.Stream.concat(SCORE_REPLIES.stream()
        .map(command -> new Difference(command, "scores print in the shortest round-trip form (as Redis 7.2+ "
            + "does), not with 7.0's %.17g: the same double, fewer digits", SAME_DOUBLES)), List.of(
        new Difference("COMMAND LIST", "Redis lists in its dict's order", SORTED),
        new Difference("ACL LIST", "Redis lists single-command rules in its dict's order", ACL_RULES_SORTED),
        new Difference("ACL GETUSER", "Redis lists single-command rules in its dict's order", ACL_RULES_SORTED),
        new Difference("INFO", "content is server-specific (versions, memory, Lacewing's lacewing_* fields)", IGNORE),
        new Difference("CLIENT ID", "client ids are per server", MASK_INTEGERS),
        new Difference("CLIENT INFO", "addresses, ids and sizes are per connection; Lacewing adds worker=", CLIENT_FIELDS),
        new Difference("CLIENT LIST", "addresses, ids and sizes are per connection; Lacewing adds worker=", CLIENT_FIELDS),
        new Difference("HELLO", "the id field is the client id, per server", HELLO_ID),
        new Difference("TIME", "the clock moves", MASK_DIGITS),
        new Difference("MEMORY USAGE", "Lacewing's estimate of its own layout, not jemalloc's", MASK_INTEGERS),
        new Difference("COMMAND COUNT", "Redis has families Lacewing has not written yet", MASK_INTEGERS),
        new Difference("CLIENT HELP", "help lists only the subcommands Lacewing has", IGNORE),
        new Difference("CONFIG HELP", "help lists only the subcommands Lacewing has", IGNORE),
        new Difference("COMMAND HELP", "help lists only the subcommands Lacewing has", IGNORE),
        new Difference("MEMORY HELP", "help lists only the subcommands Lacewing has", IGNORE)).stream()).toList();

    /** A behaviour the randomized differential test does not generate, and why. */
    public record Avoided(String behaviour, String why) {
    }

    /**
     * Behaviours in which Redis's own answer depends on timing, so no comparison can be fair, and
     * one known difference of Lacewing's that no normalization can absorb (its effect is state);
     * the differential test's generators keep clear of them. Each names what Lacewing does.
     */
    public static final List<Avoided> AVOIDED = List.of(
        new Avoided("SET with EXAT or PXAT in the past (a key stored already expired), then DBSIZE",
            "both servers keep such a key until their active expiry cycle samples it (at times of their own)"
                + " or a lookup or a SCAN that matches it deletes it, so DBSIZE meanwhile depends on when each"
                + " server's cycle ran"),
        new Avoided("relative EXPIRE/PEXPIRE with GT or LT against another relative time",
            "two equal relative times set a moment apart differ by that moment, so GT/LT's answer depends on"
                + " how many milliseconds passed between the calls on each server"),
        new Avoided("expiry times that can pass while a sequence runs",
            "whether a key still exists would depend on each server's speed; times are a day or more ahead,"
                + " or already past"),
        new Avoided("SPOP without a count, RANDOMKEY's, SRANDMEMBER's, HRANDFIELD's, ZRANDMEMBER's picks",
            "random by definition: SPOP is sent only with a count that takes every member, the others are"
                + " compared by the shape of their reply"));

    private DeliberateDifferences() {
    }

    /** The reply to the command {@code words} with every applicable difference's normalization applied, in order. */
    public static String normalize(String words, String reply) {
        String normalized = reply;
        for (Difference difference : LIST) {
            if (difference.appliesTo(words)) {
                normalized = difference.normalize().apply(normalized);
            }
        }
        return normalized;
    }
}
