package dev.lacewing.it.resp;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A raw-socket client for tests that need exact bytes: it sends what it is given (a multibulk
 * request it encodes, or any bytes at all) and reads back exactly one reply at a time, as the
 * raw bytes the server wrote. It understands RESP2 and RESP3 framing only far enough to know
 * where a reply ends.
 *
 * <p>Thread rule: one test thread at a time.
 */
public final class RespClient implements AutoCloseable {

    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new java.io.BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to 127.0.0.1:port. */
    public static RespClient connect(int port) {
        return connect("127.0.0.1", port);
    }

    /** Connects to host:port; the source address is the one the kernel picks for that host. */
    public static RespClient connect(String host, int port) {
        try {
            Socket socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), READ_TIMEOUT_MILLIS);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            return new RespClient(socket);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The request as RESP multibulk bytes. */
    public static byte[] encode(List<byte[]> arguments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + arguments.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] argument : arguments) {
            bytes.writeBytes(("$" + argument.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(argument);
            bytes.writeBytes(new byte[] {'\r', '\n'});
        }
        return bytes.toByteArray();
    }

    /** Sends a command (arguments as UTF-8) and returns its raw reply as text (ISO-8859-1, byte per char). */
    public String call(String... arguments) {
        return text(callBytes(toBytes(arguments)));
    }

    /** Sends a command of binary arguments and returns its raw reply. */
    public byte[] callBytes(List<byte[]> arguments) {
        send(encode(arguments));
        return readReply();
    }

    public static List<byte[]> toBytes(String... arguments) {
        return java.util.Arrays.stream(arguments).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** Sends bytes as they are. */
    public void send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public void send(String text) {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads one complete reply and returns its raw bytes. */
    public byte[] readReply() {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        try {
            readValue(reply);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("reading a reply, got so far: " + text(reply.toByteArray()), e);
        }
        return reply.toByteArray();
    }

    /** Whether reply bytes arrive within {@code millis}; nothing is consumed. */
    public boolean available(int millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        try {
            while (in.available() == 0) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(5);
            }
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public String readReplyText() {
        return text(readReply());
    }

    /**
     * Whether the server closed the connection within {@code millis}: true on end of stream or
     * reset, false when the wait ran out. Fails when a byte arrives instead.
     */
    public boolean closedByServer(int millis) {
        try {
            socket.setSoTimeout(millis);
            int b = in.read();
            if (b >= 0) {
                throw new AssertionError("expected the connection to close, got a byte: " + (char) b
                    + " (" + text(in.readNBytes(in.available())) + ")");
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            try {
                socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            } catch (SocketException ignored) {
                // closed already
            }
        }
    }

    private void readValue(ByteArrayOutputStream reply) throws IOException {
        int type = readByte(reply);
        String line = readLine(reply);
        switch (type) {
            case '+', '-', ':', '_', ',', '#', '(' -> {
            }
            case '$', '=', '!' -> {
                long length = Long.parseLong(line);
                if (length >= 0) {
                    reply.writeBytes(readExactly((int) length + 2));
                }
            }
            case '*', '~', '>' -> {
                long count = Long.parseLong(line);
                for (long i = 0; i < count; i++) {
                    readValue(reply);
                }
            }
            case '%', '|' -> {
                long count = Long.parseLong(line);
                for (long i = 0; i < 2 * count; i++) {
                    readValue(reply);
                }
                if (type == '|') {
                    readValue(reply);
                }
            }
            default -> throw new IOException("not a RESP type byte: " + (char) type + " line: " + line);
        }
    }

    private int readByte(ByteArrayOutputStream reply) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed by the server");
        }
        reply.write(b);
        return b;
    }

    private String readLine(ByteArrayOutputStream reply) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = readByte(reply);
            if (b == '\r') {
                int next = readByte(reply);
                if (next == '\n') {
                    return line.toString(StandardCharsets.ISO_8859_1);
                }
                line.write(b);
                line.write(next);
            } else {
                line.write(b);
            }
        }
    }

    private byte[] readExactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("connection closed in a bulk of " + length + " bytes");
        }
        return bytes;
    }

    /**
     * Parses one raw reply into Java values: simple strings, errors and bulk strings as String
     * (one char per byte), integers as Long, aggregates (maps flattened) as List, nulls as null.
     */
    public static Object parse(String reply) {
        return new Parser(reply).value();
    }

    private static final class Parser {
        private final String text;
        private int position;

        Parser(String text) {
            this.text = text;
        }

        Object value() {
            char type = text.charAt(position);
            int end = text.indexOf("\r\n", position);
            String line = text.substring(position + 1, end);
            position = end + 2;
            switch (type) {
                case '+', '-', ',', '#', '(' -> {
                    return line;
                }
                case ':' -> {
                    return Long.parseLong(line);
                }
                case '_' -> {
                    return null;
                }
                case '$', '=', '!' -> {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    String bulk = text.substring(position, position + length);
                    position += length + 2;
                    return bulk;
                }
                default -> {
                    int count = Integer.parseInt(line);
                    if (count < 0) {
                        return null;
                    }
                    int elements = type == '%' ? 2 * count : count;
                    List<Object> values = new java.util.ArrayList<>();
                    for (int i = 0; i < elements; i++) {
                        values.add(value());
                    }
                    return values;
                }
            }
        }
    }

    /**
     * The elements of the aggregate (array, set, push, or map with keys and values in turn) at the
     * start of a raw reply, each as its own raw text; empty for a null aggregate.
     */
    public static List<String> elements(String reply) {
        int line = reply.indexOf("\r\n");
        int count = Integer.parseInt(reply.substring(1, line)) * (reply.charAt(0) == '%' ? 2 : 1);
        List<String> elements = new java.util.ArrayList<>();
        int at = line + 2;
        for (int i = 0; i < count; i++) {
            int end = end(reply, at);
            elements.add(reply.substring(at, end));
            at = end;
        }
        return elements;
    }

    /** An aggregate of {@code type} ({@code * ~ > %}) holding raw {@code elements} (a map's keys and values in turn). */
    public static String aggregate(char type, List<String> elements) {
        return type + Integer.toString(elements.size() / (type == '%' ? 2 : 1)) + "\r\n" + String.join("", elements);
    }

    /** Where the raw RESP2 or RESP3 value starting at {@code at} ends. */
    private static int end(String reply, int at) {
        int line = reply.indexOf("\r\n", at);
        char type = reply.charAt(at);
        if ("$=!*~%>".indexOf(type) >= 0) {
            int n = Integer.parseInt(reply.substring(at + 1, line));
            if (n < 0) {
                return line + 2;
            }
            if ("$=!".indexOf(type) >= 0) {
                return line + 2 + n + 2;
            }
            n *= type == '%' ? 2 : 1;
            int next = line + 2;
            for (int i = 0; i < n; i++) {
                next = end(reply, next);
            }
            return next;
        }
        return line + 2;
    }

    /** Bytes as a String in ISO-8859-1, one char per byte, so any reply compares and prints exactly; null for null. */
    public static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** A String as bytes in ISO-8859-1, one byte per char up to 0xff, so that {@link #text} gives it back exactly. */
    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Bytes with CR, LF and non-printable bytes escaped, for failure messages. */
    public static String escape(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c == '\r') {
                text.append("\\r");
            } else if (c == '\n') {
                text.append("\\n");
            } else if (c < 0x20 || c >= 0x7f) {
                text.append(String.format("\\x%02x", c));
            } else {
                text.append((char) c);
            }
        }
        return text.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do on close
        }
    }
}
