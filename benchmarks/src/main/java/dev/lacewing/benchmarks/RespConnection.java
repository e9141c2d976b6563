package dev.lacewing.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A blocking RESP2 connection to a server on 127.0.0.1, for the load tools: commands written as
 * arrays of bulk strings or as bytes already encoded, buffered until {@link #flush}; replies read
 * as Java values. Thread rule: one thread uses a connection.
 */
final class RespConnection implements AutoCloseable {

    private static final int BUFFER_BYTES = 64 * 1024;

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final InputStream in;

    /** Connects within 5 s; a read that waits {@code readTimeoutMillis} fails. */
    RespConnection(int port, int readTimeoutMillis) throws IOException {
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(readTimeoutMillis);
        out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES);
        in = new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES);
    }

    /** Sends one command and reads its reply; an error reply is thrown. */
    Object command(byte[]... args) throws IOException {
        write(args);
        flush();
        Object reply = read();
        if (reply instanceof IOException error) {
            throw error;
        }
        return reply;
    }

    void write(byte[]... args) throws IOException {
        out.write('*');
        writeNumber(args.length);
        for (byte[] arg : args) {
            out.write('$');
            writeNumber(arg.length);
            out.write(arg);
            out.write('\r');
            out.write('\n');
        }
    }

    /** Commands already encoded as RESP. */
    void writeEncoded(byte[] commands, int offset, int length) throws IOException {
        out.write(commands, offset, length);
    }

    private void writeNumber(long value) throws IOException {
        out.write(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        out.write('\r');
        out.write('\n');
    }

    void flush() throws IOException {
        out.flush();
    }

    /** A reply: Long, byte[], String (status), List, null, or an IOException value for an error reply. */
    Object read() throws IOException {
        int type = in.read();
        switch (type) {
            case '+':
                return line();
            case '-':
                return new IOException(line());
            case ':':
                return Long.parseLong(line());
            case '$': {
                int length = Integer.parseInt(line());
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length);
                in.skipNBytes(2);
                return data;
            }
            case '*': {
                int count = Integer.parseInt(line());
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            case -1:
                throw new IOException("connection closed");
            default:
                throw new IOException("unexpected reply type " + (char) type);
        }
    }

    /** An integer reply, parsed without allocating; any other reply fails. */
    long readInteger() throws IOException {
        int type = in.read();
        if (type != ':') {
            throw new IOException("expected an integer reply, got '" + (char) type + "'");
        }
        long value = 0;
        boolean negative = false;
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            if (b == '-') {
                negative = true;
            } else {
                value = value * 10 + (b - '0');
            }
        }
        in.read();
        return negative ? -value : value;
    }

    private String line() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            text.append((char) b);
        }
        in.skipNBytes(1);
        return text.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
