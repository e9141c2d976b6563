package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.core.diagnostics.SlowLog;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * The clients in MONITOR mode, and the feed of every command that ran to them, one line per
 * command in Redis's format (replicationFeedMonitors):
 * {@code +1733370000.123456 [0 127.0.0.1:5555] "SET" "k" "v"}, each argument quoted as sdscatrepr
 * quotes it.
 *
 * <p>Thread rule: any thread feeds (a command runs on whichever worker holds its keys); the set of
 * monitors is a copy-on-write array, so that a server without monitors pays one length check per
 * command. A line reaches each monitor on its home thread ({@link ClientConnection#pushLine}),
 * directly when the feeding thread is that one, in a task on its event loop otherwise; lines fed
 * from one thread arrive in the order they were fed.
 */
final class Monitors {

    private volatile ClientConnection[] monitors = new ClientConnection[0];

    synchronized void add(ClientConnection monitor) {
        ClientConnection[] current = monitors;
        ClientConnection[] grown = Arrays.copyOf(current, current.length + 1);
        grown[current.length] = monitor;
        monitors = grown;
    }

    synchronized void remove(ClientConnection monitor) {
        monitors = Arrays.stream(monitors).filter(m -> m != monitor).toArray(ClientConnection[]::new);
    }

    boolean active() {
        return monitors.length != 0;
    }

    /** Feeds a command that ran in database {@code db} for a client at {@code origin} (addr:port). */
    void feed(int db, String origin, Arguments args, boolean[] redacted) {
        ClientConnection[] current = monitors;
        if (current.length == 0) {
            return;
        }
        feed(line(Instant.now(), db, origin, args, redacted));
    }

    /** Feeds a line made by {@link #line}. */
    void feed(byte[] line) {
        for (ClientConnection monitor : monitors) {
            if (monitor.inHomeThread()) {
                monitor.pushLine(line);
            } else {
                monitor.onHomeThread(() -> monitor.pushLine(line));
            }
        }
    }

    static byte[] line(Instant at, int db, String origin, Arguments args, boolean[] redacted) {
        StringBuilder line = new StringBuilder(64);
        String micros = Long.toString(at.getNano() / 1000 + 1_000_000L).substring(1);
        line.append('+').append(at.getEpochSecond()).append('.').append(micros)
            .append(" [").append(db).append(' ').append(origin).append("] ");
        for (int i = 0; i < args.count(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            if (redacted != null && redacted[i]) {
                line.append(ClientText.quote(SlowLog.REDACTED, 0, SlowLog.REDACTED.length));
            } else {
                line.append(ClientText.quote(args.array(), args.offset(i), args.length(i)));
            }
        }
        line.append("\r\n");
        return line.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
