package dev.lacewing.it.reference.differential;

import dev.lacewing.it.resp.RespClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How Redis's and Lacewing's replies to one call are compared, for replies that legitimately
 * vary from run to run (dict order, random picks, the clock). Every check compares after
 * {@code DeliberateDifferences} has normalized both replies.
 */
@FunctionalInterface
interface ReplyCheck {

    boolean agree(String redis, String lacewing);

    ReplyCheck EXACT = String::equals;

    /** Fixture calls: each server answers in its own way. */
    ReplyCheck NOT_COMPARED = (redis, lacewing) -> true;

    /** Equal after the same normalization of both. */
    static ReplyCheck normalized(UnaryOperator<String> normalize) {
        return (redis, lacewing) -> normalize.apply(redis).equals(normalize.apply(lacewing));
    }

    /**
     * Integer replies within {@code tolerance} of each other when both are non-negative (a TTL
     * read a moment later on one server); any other reply exactly.
     */
    static ReplyCheck integerWithin(long tolerance) {
        return (redis, lacewing) -> {
            if (redis.equals(lacewing)) {
                return true;
            }
            if (!redis.startsWith(":") || !lacewing.startsWith(":")) {
                return false;
            }
            long a = Long.parseLong(redis.substring(1).strip());
            long b = Long.parseLong(lacewing.substring(1).strip());
            return a >= 0 && b >= 0 && Math.abs(a - b) <= tolerance;
        };
    }

    /** An aggregate in dict order: its elements sorted (SMEMBERS, KEYS, HKEYS). */
    UnaryOperator<String> SORTED = reply -> isAggregate(reply)
        ? RespClient.aggregate(reply.charAt(0), RespClient.elements(reply).stream().sorted().toList())
        : reply;

    /** Field-value pairs in dict order (HGETALL, a map or a flat array): the pairs sorted. */
    UnaryOperator<String> SORTED_PAIRS = reply -> {
        if (!isAggregate(reply)) {
            return reply;
        }
        List<String> elements = RespClient.elements(reply);
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < elements.size(); i += 2) {
            pairs.add(elements.get(i) + elements.get(i + 1));
        }
        pairs.sort(null);
        return RespClient.aggregate(reply.charAt(0), pairs.size() * 2 == elements.size() ? pairs : elements);
    };

    /** A full SCAN (cursor 0, COUNT past the keyspace): the cursor kept, the keys sorted. */
    UnaryOperator<String> SCAN_SORTED = reply -> scan(reply, SORTED);

    /** A full HSCAN or ZSCAN: the cursor kept, the pairs sorted. */
    UnaryOperator<String> SCAN_SORTED_PAIRS = reply -> scan(reply, SORTED_PAIRS);

    /**
     * A random pick (SRANDMEMBER, HRANDFIELD, RANDOMKEY): only the reply's shape is compared,
     * its type and element count, since the picked elements differ between servers.
     */
    UnaryOperator<String> SHAPE = reply -> {
        if (reply.isEmpty() || "-".equals(reply.substring(0, 1))) {
            return reply;
        }
        if (!isAggregate(reply)) {
            return reply.charAt(0) + (reply.startsWith("$-1") ? "nil" : "value");
        }
        StringBuilder shape = new StringBuilder().append(reply.charAt(0));
        for (String element : RespClient.elements(reply)) {
            shape.append(element.charAt(0));
        }
        return shape.toString();
    };

    private static String scan(String reply, UnaryOperator<String> keys) {
        if (!isAggregate(reply)) {
            return reply;
        }
        List<String> parts = RespClient.elements(reply);
        if (parts.size() != 2) {
            return reply;
        }
        return RespClient.aggregate(reply.charAt(0), List.of(parts.get(0), keys.apply(parts.get(1))));
    }

    private static boolean isAggregate(String reply) {
        return !reply.isEmpty() && "*~%".indexOf(reply.charAt(0)) >= 0 && !reply.startsWith("*-1");
    }
}
