package dev.lacewing.it.persistence;

import dev.lacewing.core.server.LacewingServer;

/**
 * A Lacewing server in a process of its own, for {@link AofCrashTest} to kill with SIGKILL:
 * {@code port engine transport dir appendfsync}, appendonly yes, no RDB save points.
 */
public final class AofCrashServer {

    private AofCrashServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        LacewingServer server = LacewingServer.builder()
            .port(Integer.parseInt(args[0]))
            .engine(args[1])
            .transport(args[2])
            .threads(2)
            .set("dir", args[3])
            .set("save", "")
            .set("appendonly", "yes")
            .set("appendfsync", args[4])
            .start();
        System.out.println("serving on " + server.port());
        server.awaitShutdown();
    }
}
