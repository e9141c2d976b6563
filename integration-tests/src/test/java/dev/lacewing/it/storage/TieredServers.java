package dev.lacewing.it.storage;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.stream.Stream;

/** What the tiered storage's tests share: their targets, their servers, and reading INFO's figures. */
final class TieredServers {

    /** The storage's test hook: every read of an offloaded value sleeps this many ms, read when a server starts. */
    private static final String READ_DELAY = "lacewing.tiered.read-delay-ms";

    private TieredServers() {
    }

    /** Both engines on the tiered storage over the nio transport: the suite's own targets cover tiered on every transport. */
    static Stream<Target> engines() {
        return Servers.ENGINES.stream().map(engine -> new Target(engine, "nio", "tiered"));
    }

    /** A server of {@code target} on the tiered storage with every string of 16 bytes or more on disk. */
    static LacewingServer.Builder eager(Target target) {
        return Servers.builder(target).set("storage", "tiered").set("tiered-offload", "eager")
            .set("tiered-min-value-size", "16");
    }

    /** Starts {@code builder}'s server with every read of an offloaded value taking {@code millis}. */
    static LacewingServer startWithReadDelay(LacewingServer.Builder builder, long millis) {
        System.setProperty(READ_DELAY, Long.toString(millis));
        try {
            return builder.start();
        } finally {
            System.clearProperty(READ_DELAY);
        }
    }

    /** A field of INFO {@code section}, or of INFO's default sections where {@code section} is empty. */
    static String infoValue(RespClient client, String section, String name) {
        String info = section.isEmpty() ? client.call("INFO") : client.call("INFO", section);
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1);
            }
        }
        throw new AssertionError(name + " missing from INFO " + section);
    }

    static long infoField(RespClient client, String section, String name) {
        return Long.parseLong(infoValue(client, section, name));
    }

    static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }
}
