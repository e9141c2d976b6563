package dev.lacewing.benchmarks.load;

import dev.lacewing.core.keyspace.Slots;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which master serves each hash slot, as {@code CLUSTER SLOTS} tells it, for --cluster-mode: every
 * client then opens one connection per master and sends each key to the master of its slot, as
 * memtier_benchmark's cluster mode does. Read once before the run (a blocking socket); immutable
 * afterwards, so the load threads share it.
 */
final class ClusterTopology {

    /** A master: where to connect. */
    record Node(String host, int port) {
    }

    private final List<Node> nodes;
    /** The index in {@link #nodes} of each slot's master; -1 for a slot no master serves. */
    private final int[] owners;

    ClusterTopology(List<Node> nodes, int[] owners) {
        this.nodes = List.copyOf(nodes);
        this.owners = owners;
    }

    List<Node> nodes() {
        return nodes;
    }

    int ownerOf(int slot) {
        return owners[slot];
    }

    /** The master index for key {@code prefix + index}, computed in {@code scratch} (at least 20 + prefix bytes). */
    int ownerOf(byte[] prefix, long index, byte[] scratch) {
        System.arraycopy(prefix, 0, scratch, 0, prefix.length);
        int end = prefix.length + CommandTemplate.decimalDigits(index);
        for (int i = end - 1; i >= prefix.length; i--) {
            scratch[i] = (byte) ('0' + index % 10);
            index /= 10;
        }
        return owners[Slots.slot(scratch, 0, end)];
    }

    /**
     * Asks {@code host:port} for CLUSTER SLOTS (after AUTH when a password is given). A master
     * announced without an address (an empty host) is reached at {@code host}. Fails when some
     * slot has no master: the run could not send those keys anywhere.
     */
    static ClusterTopology discover(String host, int port, String credentials) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(10_000);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            if (credentials != null) {
                out.write(encode(authWords(credentials)));
                Object reply = read(in);
                if (reply instanceof ErrorReply error) {
                    throw new IOException("AUTH refused: " + error.text());
                }
            }
            out.write(encode(List.of("CLUSTER", "SLOTS")));
            Object reply = read(in);
            if (reply instanceof ErrorReply error) {
                throw new IOException("CLUSTER SLOTS refused (is the server in cluster mode?): " + error.text());
            }
            return fromSlots((List<?>) reply, host);
        }
    }

    static ClusterTopology fromSlots(List<?> ranges, String seedHost) throws IOException {
        List<Node> nodes = new ArrayList<>();
        int[] owners = new int[Slots.COUNT];
        Arrays.fill(owners, -1);
        for (Object entry : ranges) {
            List<?> range = (List<?>) entry;
            int first = ((Long) range.get(0)).intValue();
            int last = ((Long) range.get(1)).intValue();
            List<?> master = (List<?>) range.get(2);
            String nodeHost = (String) master.get(0);
            Node node = new Node(nodeHost.isEmpty() || nodeHost.equals("?") ? seedHost : nodeHost,
                ((Long) master.get(1)).intValue());
            int index = nodes.indexOf(node);
            if (index < 0) {
                nodes.add(node);
                index = nodes.size() - 1;
            }
            for (int slot = first; slot <= last; slot++) {
                owners[slot] = index;
            }
        }
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] < 0) {
                throw new IOException("slot " + slot + " has no master: the cluster is not ready");
            }
        }
        return new ClusterTopology(nodes, owners);
    }

    /** AUTH's words for memtier's credentials: "password" or "user:password". */
    static List<String> authWords(String credentials) {
        int colon = credentials.indexOf(':');
        return colon < 0 ? List.of("AUTH", credentials)
            : List.of("AUTH", credentials.substring(0, colon), credentials.substring(colon + 1));
    }

    static byte[] encode(List<String> words) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + words.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String word : words) {
            byte[] data = word.getBytes(StandardCharsets.UTF_8);
            bytes.writeBytes(("$" + data.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(data);
            bytes.writeBytes(new byte[] {'\r', '\n'});
        }
        return bytes.toByteArray();
    }

    private record ErrorReply(String text) {
    }

    /** One RESP2 reply: a List, Long, String (simple or bulk), null, or an ErrorReply. */
    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                return new ErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length + 2);
                return new String(data, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                List<Object> elements = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    elements.add(read(in));
                }
                return elements;
            }
            default:
                throw new IOException("unexpected reply type " + (type < 0 ? "(end of stream)" : (char) type));
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed mid-reply");
            }
            line.append((char) b);
        }
        in.read();
        return line.toString();
    }
}
