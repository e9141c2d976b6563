package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MONITOR in Redis 7.0's line format: commands of clients on every thread and of keys on every
 * shard, quoted as sdscatrepr quotes them; the database after the command; secrets redacted;
 * MULTI's commands when EXEC runs them, before EXEC's own line; admin, unknown and refused
 * commands never shown; and what the monitoring client itself may still do.
 */
class MonitorTest {

    /** A line with its time and the client's port masked. */
    private static String masked(String line) {
        assertTrue(line.matches("(?s)\\+\\d{10}\\.\\d{6} \\[\\d+ 127\\.0\\.0\\.1:\\d+] .*\r\n"), line);
        return line.replaceFirst("^\\+\\d+\\.\\d{6} ", "+T ").replaceFirst(":\\d+] ", ":P] ").replace("\r\n", "");
    }

    private static RespClient monitor(LacewingServer server) {
        RespClient monitor = RespClient.connect(server.port());
        monitor.send(RespClient.encode(RespClient.toBytes("MONITOR")));
        assertEquals("+OK\r\n", monitor.readReplyText());
        return monitor;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void showsTheCommandsOfClientsOnEveryThread(Target target) {
        try (LacewingServer server = Servers.builder(target).start(); RespClient monitor = monitor(server)) {
            List<RespClient> clients = new ArrayList<>();
            Set<String> expected = new HashSet<>();
            try {
                for (int c = 0; c < 4; c++) {
                    clients.add(RespClient.connect(server.port()));
                }
                for (int i = 0; i < 40; i++) {
                    clients.get(i % 4).call("SET", "mon:" + i, "v" + i);
                    expected.add("+T [0 127.0.0.1:P] \"SET\" \"mon:" + i + "\" \"v" + i + "\"");
                }
            } finally {
                clients.forEach(RespClient::close);
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                seen.add(masked(monitor.readReplyText()));
            }
            assertEquals(expected, seen);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void linesAsRedisWritesThem(Target target) {
        try (LacewingServer server = Servers.builder(target).start(); RespClient monitor = monitor(server);
             RespClient client = RespClient.connect(server.port())) {
            client.callBytes(List.of(RespClient.bytes("SET"), RespClient.bytes("k"),
                "v\u0000\n\"\\ ok\r\t".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                new byte[] {(byte) 0xc3, (byte) 0xa9}));
            client.call("SET", "k", "v");
            client.call("AUTH", "a", "b");
            client.call("HELLO", "2", "AUTH", "x", "y");
            client.call("MULTI");
            client.call("SET", "{m}a", "1");
            client.call("INCR", "{m}a");
            client.call("EXEC");
            client.call("MULTI");
            client.call("GET", "{m}a");
            client.call("DISCARD");
            client.call("CONFIG", "SET", "maxclients", "1000");
            client.call("NOSUCH", "x");
            client.call("GET");
            client.call("SLOWLOG", "LEN");
            client.call("SELECT", "3");
            client.call("INCR", "k");
            client.call("PING");
            client.call("QUIT");
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 14; i++) {
                lines.add(masked(monitor.readReplyText()));
            }
            String at = "+T [0 127.0.0.1:P] ";
            String at3 = "+T [3 127.0.0.1:P] ";
            assertEquals(List.of(
                at + "\"SET\" \"k\" \"v\\x00\\n\\\"\\\\ ok\\r\\t\" \"\\xc3\\xa9\"",
                at + "\"SET\" \"k\" \"v\"",
                at + "\"AUTH\" \"(redacted)\" \"(redacted)\"",
                at + "\"HELLO\" \"2\" \"AUTH\" \"(redacted)\" \"(redacted)\"",
                at + "\"MULTI\"",
                at + "\"SET\" \"{m}a\" \"1\"",
                at + "\"INCR\" \"{m}a\"",
                at + "\"EXEC\"",
                at + "\"MULTI\"",
                at + "\"DISCARD\"",
                at3 + "\"SELECT\" \"3\"",
                at3 + "\"INCR\" \"k\"",
                at3 + "\"PING\"",
                at3 + "\"QUIT\""), lines);
        }
    }

    /**
     * A script's request first, then each command it ran as {@code [db lua]}, the database being
     * the one after that command; commands the script was refused are not shown. Lines as
     * redis-server 7.0.15 writes them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scriptsShowTheirRequestThenTheCommandsTheyRanAsLua(Target target) {
        try (LacewingServer server = Servers.builder(target).start(); RespClient monitor = monitor(server);
             RespClient client = RespClient.connect(server.port())) {
            String body = "redis.call('set',KEYS[1],ARGV[1]) redis.pcall('nosuch') return redis.call('get',KEYS[1])";
            client.call("EVAL", body, "1", "k", "v v");
            client.call("EVALSHA", client.call("SCRIPT", "LOAD", "return redis.call('incr',KEYS[1])").split("\r\n")[1],
                "1", "n");
            client.call("EVAL", "return 1", "-1");
            client.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return redis.call('ping') end)");
            client.call("FCALL", "f", "0");
            client.call("SELECT", "3");
            client.call("EVAL", "redis.call('select', 5) return redis.call('set','a','b')", "0");
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 14; i++) {
                lines.add(monitor.readReplyText().replaceFirst("^\\+\\d{10}\\.\\d{6} ", "+T ")
                    .replaceFirst("127\\.0\\.0\\.1:\\d+] ", "C] ").replace("\r\n", ""));
            }
            assertEquals(List.of(
                "+T [0 C] \"EVAL\" \"" + body + "\" \"1\" \"k\" \"v v\"",
                "+T [0 lua] \"set\" \"k\" \"v v\"",
                "+T [0 lua] \"get\" \"k\"",
                "+T [0 C] \"SCRIPT\" \"LOAD\" \"return redis.call('incr',KEYS[1])\"",
                lines.get(4),
                "+T [0 lua] \"incr\" \"n\"",
                "+T [0 C] \"EVAL\" \"return 1\" \"-1\"",
                "+T [0 C] \"FUNCTION\" \"LOAD\" \"#!lua name=lib\\nredis.register_function('f', function() return "
                    + "redis.call('ping') end)\"",
                "+T [0 C] \"FCALL\" \"f\" \"0\"",
                "+T [0 lua] \"ping\"",
                "+T [3 C] \"SELECT\" \"3\"",
                "+T [3 C] \"EVAL\" \"redis.call('select', 5) return redis.call('set','a','b')\" \"0\"",
                "+T [5 lua] \"select\" \"5\"",
                "+T [5 lua] \"set\" \"a\" \"b\""), lines);
            assertTrue(lines.get(4).matches("\\+T \\[0 C] \"EVALSHA\" \"[0-9a-f]{40}\" \"1\" \"n\""), lines.get(4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theMonitoringClientMayNotTouchKeysAndLeavesOnReset(Target target) {
        try (LacewingServer server = Servers.builder(target).start(); RespClient monitor = monitor(server)) {
            monitor.send(RespClient.encode(RespClient.toBytes("PING")));
            assertEquals("+PONG\r\n", monitor.readReplyText());
            assertEquals("+T [0 127.0.0.1:P] \"PING\"", masked(monitor.readReplyText()));
            assertEquals("-ERR Replica can't interact with the keyspace\r\n", monitor.call("GET", "x"));
            monitor.send(RespClient.encode(RespClient.toBytes("MONITOR")));
            assertEquals("$1\r\nx\r\n", monitor.call("ECHO", "x"));
            assertEquals("+T [0 127.0.0.1:P] \"ECHO\" \"x\"", masked(monitor.readReplyText()));
            assertEquals("+RESET\r\n", monitor.call("RESET"));
            assertEquals("$-1\r\n", monitor.call("GET", "x"));
            assertEquals("+OK\r\n", monitor.call("MULTI"));
            assertEquals("+QUEUED\r\n", monitor.call("MONITOR"));
            assertEquals("*1\r\n-ERR MONITOR isn't allowed for DENY BLOCKING client\r\n", monitor.call("EXEC"));
            assertEquals("+OK\r\n", monitor.call("QUIT"));
            assertTrue(monitor.closedByServer(5000));
        }
    }
}
