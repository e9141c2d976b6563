package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The scripting family: EVAL, EVALSHA, their read-only forms and SCRIPT LOAD/EXISTS/FLUSH, over
 * the other families' keys. A body is one to three {@code redis.call} or {@code redis.pcall}
 * statements of the string, hash, list, set, sorted set, bitmap, HyperLogLog and key commands on
 * its KEYS (two-key commands when it declares two), now and then on a key it does not declare, as
 * BullMQ's scripts do; it returns one result, all of them as a table, or a result's type. Bodies
 * from a small fixed set come back by SHA (EVALSHA, SCRIPT LOAD and EXISTS), others are new to
 * both servers. Lua text that luaj and C Lua write differently (numbers concatenated with
 * {@code ..}, runtime errors outside redis.call) is never generated.
 */
final class ScriptingCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of("EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "SCRIPT");

    /** Commands on KEYS[1], with ARGV[1] and ARGV[2]. */
    private static final List<String> ONE_KEY = List.of(
        "'set',KEYS[1],ARGV[1]", "'get',KEYS[1]", "'incr',KEYS[1]", "'append',KEYS[1],ARGV[1]", "'strlen',KEYS[1]",
        "'getrange',KEYS[1],0,2", "'del',KEYS[1]", "'exists',KEYS[1]", "'type',KEYS[1]",
        "'hset',KEYS[1],ARGV[1],ARGV[2]", "'hget',KEYS[1],ARGV[1]", "'hlen',KEYS[1]", "'hincrby',KEYS[1],ARGV[1],ARGV[2]",
        "'lpush',KEYS[1],ARGV[1]", "'rpop',KEYS[1]", "'lrange',KEYS[1],0,-1", "'llen',KEYS[1]",
        "'sadd',KEYS[1],ARGV[1]", "'scard',KEYS[1]", "'sismember',KEYS[1],ARGV[1]",
        "'zadd',KEYS[1],ARGV[2],ARGV[1]", "'zscore',KEYS[1],ARGV[1]", "'zrange',KEYS[1],0,-1,'withscores'",
        "'zincrby',KEYS[1],ARGV[2],ARGV[1]", "'setbit',KEYS[1],7,1", "'bitcount',KEYS[1]", "'pfadd',KEYS[1],ARGV[1]",
        "'incrby',KEYS[1],ARGV[2]", "'expire',KEYS[1],1000", "'persist',KEYS[1]");

    /** Commands on KEYS[1] and KEYS[2]. */
    private static final List<String> TWO_KEYS = List.of(
        "'rename',KEYS[1],KEYS[2]", "'smove',KEYS[1],KEYS[2],ARGV[1]", "'lmove',KEYS[1],KEYS[2],'left','right'",
        "'mget',KEYS[1],KEYS[2]", "'mset',KEYS[1],ARGV[1],KEYS[2],ARGV[2]", "'del',KEYS[1],KEYS[2]",
        "'sunionstore',KEYS[1],KEYS[1],KEYS[2]", "'copy',KEYS[1],KEYS[2]");

    /** Commands on a key the script does not declare (a printable one of the key pool). */
    private static final List<String> UNDECLARED = List.of(
        "'get','k:2'", "'set','a',ARGV[1]", "'incr','b'", "'sadd','{t}y',ARGV[1]", "'del','c'");

    /** Bodies that come back by SHA. */
    private static final List<String> FIXED = List.of(
        "return redis.call('set',KEYS[1],ARGV[1])",
        "return redis.call('get',KEYS[1])",
        "redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])",
        "return {redis.pcall('incr',KEYS[1]), redis.call('exists',KEYS[1])}",
        "#!lua flags=no-writes\nreturn redis.call('type',KEYS[1])",
        "return redis.call('lpush',KEYS[1],ARGV[1])");

    @Override
    public String family() {
        return "scripting";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        int what = draw.below(20);
        if (what < 8) {
            return eval(draw, draw.chance(0.1) ? "EVAL_RO" : "EVAL", draw.chance(0.3) ? draw.pick(FIXED.toArray(String[]::new))
                : null);
        }
        if (what < 13) {
            return eval(draw, draw.chance(0.1) ? "EVALSHA_RO" : "EVALSHA", draw.pick(FIXED.toArray(String[]::new)));
        }
        if (what < 16) {
            return Call.exact("SCRIPT", "LOAD", draw.chance(0.8) ? draw.pick(FIXED.toArray(String[]::new)) : body(draw, 1));
        }
        if (what < 19) {
            List<Object> shas = new ArrayList<>();
            for (int i = draw.between(1, 3); i > 0; i--) {
                shas.add(draw.chance(0.8) ? sha1(draw.pick(FIXED.toArray(String[]::new))) : draw.junk());
            }
            return Call.exact(words("SCRIPT", "EXISTS", shas));
        }
        return draw.chance(0.5) ? Call.exact("SCRIPT", "FLUSH") : Call.exact("SCRIPT", "FLUSH", draw.pick("SYNC", "ASYNC"));
    }

    /**
     * EVAL of {@code fixed} or of a new body, or EVALSHA of {@code fixed}'s SHA, with one or two
     * keys, two arguments, and now and then a bad numkeys.
     */
    private static Call eval(Draw draw, String command, String fixed) {
        int keys = draw.between(1, 2);
        String script = fixed != null ? fixed : body(draw, keys);
        Object first = command.startsWith("EVALSHA") ? (draw.chance(0.05) ? draw.junk() : sha1(script)) : script;
        String numKeys = draw.chance(0.05) ? draw.pick("-1", "abc", "5") : Integer.toString(keys);
        return Call.exact(words(command, first, numKeys, draw.keys(keys, keys), draw.value(), draw.integer()));
    }

    private static String body(Draw draw, int keys) {
        StringBuilder body = new StringBuilder();
        int statements = draw.between(1, 3);
        for (int i = 1; i <= statements; i++) {
            String command = draw.chance(0.1) ? draw.pick(UNDECLARED.toArray(String[]::new))
                : keys == 2 && draw.chance(0.3) ? draw.pick(TWO_KEYS.toArray(String[]::new))
                : draw.pick(ONE_KEY.toArray(String[]::new));
            body.append("local r").append(i).append(" = redis.").append(draw.chance(0.3) ? "pcall" : "call")
                .append('(').append(command).append(")\n");
        }
        switch (draw.below(3)) {
            case 0 -> body.append("return r").append(statements);
            case 1 -> {
                body.append("return {");
                for (int i = 1; i <= statements; i++) {
                    body.append(i > 1 ? "," : "").append('r').append(i);
                }
                body.append('}');
            }
            default -> body.append("return type(r").append(statements).append(')');
        }
        return body.toString();
    }

    private static String sha1(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
