package dev.lacewing.it.server;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One long pipeline of commands over keys of every shard, mixed with requests the connection must
 * answer itself (unknown command, wrong arity, SELECT): under shared-nothing, runs of commands for
 * one other shard are taken there in one hop, and every reply must still come in request order.
 */
class PipelinedHopBatchTest {

    private static final int COMMANDS = 5000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aMixedPipelineOverEveryShardRepliesInOrder(Target target) throws Exception {
        int port = Servers.server(target).port();
        String prefix = "hopbatch:" + target + ":" + System.nanoTime() + ":";
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        List<String> expected = new ArrayList<>();
        List<Map<String, String>> databases = List.of(new HashMap<>(), new HashMap<>());
        int database = 0;
        for (int i = 0; i < COMMANDS; i++) {
            Map<String, String> values = databases.get(database);
            String key = prefix + (i * 7919 % 211);
            String other = prefix + (i * 104729 % 211);
            if (i == 2000 || i == 3500) {
                database = 1 - database;
                command(requests, "SELECT", String.valueOf(database));
                expected.add("+OK");
            } else if (i % 500 == 17) {
                command(requests, "NOSUCHCOMMAND", key);
                expected.add("-ERR unknown command 'NOSUCHCOMMAND', with args beginning with: '" + key + "' ");
            } else if (i % 700 == 33) {
                command(requests, "GET");
                expected.add("-ERR wrong number of arguments for 'get' command");
            } else if (i % 9 == 0) {
                command(requests, "MGET", key, other);
                expected.add("*2," + bulk(values.get(key)) + "," + bulk(values.get(other)));
            } else if (i % 7 == 0) {
                command(requests, "DEL", key, other);
                int deleted = (values.remove(key) != null ? 1 : 0) + (values.remove(other) != null ? 1 : 0);
                expected.add(":" + deleted);
            } else if (i % 5 == 0) {
                String counter = prefix + "counter:" + (i % 13);
                command(requests, "INCR", counter);
                long next = Long.parseLong(values.getOrDefault(counter, "0")) + 1;
                values.put(counter, String.valueOf(next));
                expected.add(":" + next);
            } else if (i % 3 == 0) {
                command(requests, "GET", key);
                expected.add(bulk(values.get(key)));
            } else {
                String value = "v" + i;
                command(requests, "SET", key, value);
                values.put(key, value);
                expected.add("+OK");
            }
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    out.write(requests.toByteArray());
                    out.flush();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < COMMANDS; i++) {
                assertEquals(expected.get(i), reply(in), "reply #" + i);
            }
            sent.get(20, TimeUnit.SECONDS);
            out.write(bytes("*1\r\n$4\r\nPING\r\n"));
            assertEquals("+PONG", reply(in));
        }
    }

    private static void command(ByteArrayOutputStream requests, String... arguments) {
        requests.writeBytes(bytes("*" + arguments.length + "\r\n"));
        for (String argument : arguments) {
            byte[] value = bytes(argument);
            requests.writeBytes(bytes("$" + value.length + "\r\n"));
            requests.writeBytes(value);
            requests.writeBytes(bytes("\r\n"));
        }
    }

    private static String bulk(String value) {
        return value == null ? "$-1" : "$" + value;
    }

    /** One RESP2 reply, flattened: an array as {@code *n,element,...}, a bulk as {@code $text}. */
    private static String reply(InputStream in) throws IOException {
        String line = line(in);
        char type = line.charAt(0);
        if (type == '$') {
            int length = Integer.parseInt(line.substring(1));
            if (length < 0) {
                return "$-1";
            }
            byte[] value = in.readNBytes(length + 2);
            return "$" + new String(value, 0, length, StandardCharsets.UTF_8);
        }
        if (type == '*') {
            int count = Integer.parseInt(line.substring(1));
            StringBuilder flat = new StringBuilder(line);
            for (int i = 0; i < count; i++) {
                flat.append(',').append(reply(in));
            }
            return flat.toString();
        }
        assertTrue(type == '+' || type == '-' || type == ':', line);
        return line;
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            line.write(b);
        }
        in.read();
        return line.toString(StandardCharsets.UTF_8);
    }
}
