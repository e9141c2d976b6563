package dev.lacewing.script.lua;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptDebugger;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.script.lua.lib.RedisRandom;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LDB's transcript on the runtime alone: what each debugger command logs, worded as redis-server 7.0.15 words it. */
class LuaDebuggerTest {

    private static final String SCRIPT = """
        local a = redis.call('set', KEYS[1], ARGV[1])
        local t = {1, 'two', {x=3}}
        redis.debug('dbg', a, t)
        local b = redis.call('get', KEYS[1])
        redis.breakpoint()
        return b
        """;

    /** The transcript redis-server 7.0.15 gives for the same session (its INCR answering 1 here). */
    @Test
    void sessionLogsAsRedisDoes() {
        List<String> out = session(SCRIPT, "s", "p", "s", "s", "print t", "list 2 1", "b 6", "b", "e 1+1", "r incr c",
            "trace", "foo", "maxlen 10", "c");
        assertEquals(List.of(
            "*2", "* Stopped at 1, stop reason = step over", "-> 1   local a = redis.call('set', KEYS[1], ARGV[1])",
            "*4", "<redis> set k v", "<reply> \"+OK\"", "* Stopped at 2, stop reason = step over",
            "-> 2   local t = {1, 'two', {x=3}}",
            "*1", "<value> a = {[\"ok\"]=\"OK\"}",
            "*2", "* Stopped at 3, stop reason = step over", "-> 3   redis.debug('dbg', a, t)",
            "*3", "<debug> line 3: \"dbg\", {[\"ok\"]=\"OK\"}, {1; \"two\"; {[\"x\"]=3}}",
            "* Stopped at 4, stop reason = step over", "-> 4   local b = redis.call('get', KEYS[1])",
            "*1", "<value> {1; \"two\"; {[\"x\"]=3}}",
            "*3", "   1   local a = redis.call('set', KEYS[1], ARGV[1])", "   2   local t = {1, 'two', {x=3}}",
            "   3   redis.debug('dbg', a, t)",
            "*2", "   5   redis.breakpoint()", "  #6   return b",
            "*2", "1 breakpoints set:", "  #6   return b",
            "*1", "<retval> 2",
            "*2", "<redis> incr c", "<reply> 1",
            "*2", "In top level:", "-> 4   local b = redis.call('get', KEYS[1])",
            "*1", "<error> Unknown Redis Lua debugger command or wrong number of arguments.",
            "*1", "<value> replies are truncated at 60 bytes.",
            "*2", "* Stopped at 6, stop reason = redis.breakpoint() called", "->#6   return b",
            "*1", "<endsession>",
            "bulk(v)"), out);
    }

    @Test
    void abortEndsTheScriptWithRedisError() {
        List<String> out = session(SCRIPT, "a");
        assertEquals(List.of("*2", "* Stopped at 1, stop reason = step over",
            "-> 1   local a = redis.call('set', KEYS[1], ARGV[1])", "*1", "<endsession>",
            "error(ERR script aborted for user request script: sha, on @user_script:1.)"), out);
    }

    @Test
    void failedCommandsLogTheirErrors() {
        List<String> out = session(SCRIPT, "r lpush k x", "r set", "c");
        assertEquals(List.of("*2", "* Stopped at 1, stop reason = step over",
            "-> 1   local a = redis.call('set', KEYS[1], ARGV[1])",
            "*3", "<redis> lpush k x", "<error> -WRONGTYPE Operation against a key holding the wrong kind of value",
            "<reply> \"-WRONGTYPE Operation against a key holding the wrong kind of value\"",
            "*2", "<redis> set", "<error> Wrong number of args calling Redis command from script",
            "*3", "<debug> line 3: \"dbg\", {[\"ok\"]=\"OK\"}, {1; \"two\"; {[\"x\"]=3}}",
            "* Stopped at 6, stop reason = redis.breakpoint() called", "-> 6   return b",
            "*1", "<endsession>",
            "bulk(v)"), out);
    }

    @Test
    void aClientThatLeavesLetsTheScriptRunToItsEnd() {
        List<String> out = session(SCRIPT);
        assertEquals("bulk(v)", out.get(out.size() - 1));
        assertEquals("<endsession>", out.get(out.size() - 2));
    }

    @Test
    void longValuesAreTrimmedAtMaxlenWithAHintOnce() {
        String body = "local s = string.rep('x', 300)\nreturn 1\n";
        List<String> out = session(body, "s", "p s", "p s", "maxlen 0", "p s", "c");
        String whole = "<value> \"" + "x".repeat(300) + "\"";
        String cut = whole.substring(0, 256) + " ...";
        assertEquals(List.of(
            "*2", "<value> " + "x".repeat(0) + cut.substring(8),
            "<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.",
            "*1", cut,
            "*1", "<value> replies are unlimited.",
            "*1", whole), out.subList(6, 15));
    }

    /** Runs {@code body} with KEYS {k} and ARGV {v}, the client sending {@code commands}; the logs, one line each, then the reply. */
    static List<String> session(String body, String... commands) {
        Deque<byte[][]> input = new ArrayDeque<>();
        for (String command : commands) {
            String[] words = command.split(" ");
            byte[][] argv = new byte[words.length][];
            for (int i = 0; i < words.length; i++) {
                argv[i] = words[i].getBytes(StandardCharsets.UTF_8);
            }
            input.add(argv);
        }
        List<String> out = new ArrayList<>();
        ScriptDebugger client = new ScriptDebugger() {
            @Override
            public void send(List<String> lines) {
                out.add("*" + lines.size());
                out.addAll(lines);
            }

            @Override
            public byte[][] read() {
                return input.poll();
            }
        };
        StringBuilder reply = new StringBuilder();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        new LuaRuntime(new RedisRandom()).debug("sha", bytes, host(), recorder(reply), client);
        out.add(reply.toString());
        return out;
    }

    private static ScriptHost host() {
        byte[][] args = {"eval".getBytes(), "body".getBytes(), "1".getBytes(), "k".getBytes(), "v".getBytes()};
        return new ScriptHost() {
            @Override
            public Arguments arguments() {
                return new Arguments() {
                    @Override
                    public int count() {
                        return args.length;
                    }

                    @Override
                    public byte[] array() {
                        return args[0];
                    }

                    @Override
                    public int offset(int index) {
                        return 0;
                    }

                    @Override
                    public int length(int index) {
                        return args[index].length;
                    }

                    @Override
                    public byte[] copy(int index) {
                        return args[index].clone();
                    }
                };
            }

            @Override
            public int firstKey() {
                return 3;
            }

            @Override
            public int keyCount() {
                return 1;
            }

            @Override
            public byte[] call(byte[][] argv, int protocol, boolean raiseErrors) {
                String name = new String(argv[0], StandardCharsets.UTF_8).toLowerCase();
                String reply = switch (name) {
                    case "set" -> argv.length < 3 ? "-ERR Wrong number of args calling Redis command from script\r\n"
                        : "+OK\r\n";
                    case "lpush" -> "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
                    case "get" -> "$1\r\nv\r\n";
                    case "incr" -> ":1\r\n";
                    default -> "-ERR unknown command\r\n";
                };
                return reply.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public boolean checkpoint() {
                return false;
            }

            @Override
            public void log(int level, String message) {
            }
        };
    }

    private static ReplyWriter recorder(StringBuilder out) {
        return (ReplyWriter) Proxy.newProxyInstance(ReplyWriter.class.getClassLoader(), new Class<?>[] {ReplyWriter.class},
            (proxy, method, args) -> {
                if (method.getName().equals("protocol")) {
                    return 2;
                }
                out.append(method.getName()).append('(');
                if (args != null && args.length > 0) {
                    out.append(args[0] instanceof byte[] b
                        ? new String(b, args.length == 3 ? (Integer) args[1] : 0, args.length == 3 ? (Integer) args[2] : b.length,
                            StandardCharsets.UTF_8)
                        : String.valueOf(args[0]));
                }
                out.append(')');
                return null;
            });
    }
}
