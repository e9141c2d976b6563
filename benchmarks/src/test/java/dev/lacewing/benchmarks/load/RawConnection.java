package dev.lacewing.benchmarks.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A blocking connection for checks around a load run; replies of one line only (status, error, integer). */
final class RawConnection implements AutoCloseable {

    private final Socket socket = new Socket();
    private final BufferedReader in;
    private final OutputStream out;

    RawConnection(String host, int port) throws IOException {
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(10_000);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        out = socket.getOutputStream();
    }

    /** Sends a command and returns its one-line reply, without the CRLF. */
    String call(String... words) throws IOException {
        out.write(ClusterTopology.encode(List.of(words)));
        return in.readLine();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
