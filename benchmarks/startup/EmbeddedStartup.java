import dev.lacewing.core.server.LacewingServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * How long an embedded server takes to start: from the builder's start() until it answers PING
 * on its ephemeral port, and until close() returns. The first start in a JVM includes loading
 * and linking the classes (what an application test pays once); the later ones are what each
 * further server costs. Run by benchmarks/embedded-startup.sh.
 */
public final class EmbeddedStartup {

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        String engine = args.length > 1 ? args[1] : "shared-nothing";
        for (int run = 1; run <= runs; run++) {
            long start = System.nanoTime();
            LacewingServer server = LacewingServer.builder().port(0).engine(engine).start();
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] reply = new byte[7];
                int read = 0;
                while (read < reply.length) {
                    int n = in.read(reply, read, reply.length - read);
                    if (n < 0) {
                        throw new IllegalStateException("closed after " + read + " bytes");
                    }
                    read += n;
                }
                if (!new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n")) {
                    throw new IllegalStateException("unexpected reply");
                }
            }
            long ready = System.nanoTime();
            server.close();
            long closed = System.nanoTime();
            System.out.printf("run %d (%s): answering PING after %.1f ms, closed after %.1f ms more%n",
                run, engine, (ready - start) / 1e6, (closed - ready) / 1e6);
        }
    }
}
