package dev.lacewing.it.persistence;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;

/**
 * A Lacewing server in a process of its own, for {@link AofCrashTest} to kill with SIGKILL:
 * {@code port engine transport storage dir appendfsync}, a server of that target as
 * {@link Servers#builder} makes it, appendonly yes, no RDB save points.
 */
public final class AofCrashServer {

    private AofCrashServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        LacewingServer server = Servers.builder(new Target(args[1], args[2], args[3]))
            .port(Integer.parseInt(args[0]))
            .set("dir", args[4])
            .set("appendonly", "yes")
            .set("appendfsync", args[5])
            .start();
        System.out.println("serving on " + server.port());
        server.awaitShutdown();
    }
}
