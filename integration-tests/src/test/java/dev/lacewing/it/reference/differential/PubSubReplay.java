package dev.lacewing.it.reference.differential;

import dev.lacewing.it.reference.DeliberateDifferences;
import dev.lacewing.it.resp.RespClient;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays a {@link PubSubScenario} on {@value PubSubScenario#CONNECTIONS} connections to
 * redis-server and as many to Lacewing, and finds the first step after which some connection's
 * frames (replies and pushed messages, in order) disagree.
 *
 * <p>How a step's frames are collected: its calls are sent on its connection followed by a
 * marker, {@code PING sync:<step>}, and that connection is read up to the marker's reply; then
 * every other connection gets a marker and is read up to its reply. Redis writes a published
 * message (or a keyspace event) into each subscriber's output before it replies to the
 * publisher, so by the time the publisher's marker is answered every push the step caused is
 * queued ahead of the other connections' markers: the frames before a marker are exactly what
 * the step produced there. A server that delivered later shows the message after the marker,
 * in the next step's frames, and so disagrees. A step's first reply that is not a push is
 * compared by its call's {@link ReplyCheck}; every other frame byte for byte.
 *
 * <p>A step's calls after {@link PubSubScenario#WAIT} are sent that long after the ones before it,
 * and its marker as long after them.
 * A word {@code {client:N}} is sent as that server's id of connection N, and those ids in the
 * replies of CLIENT GETREDIR and CLIENT TRACKINGINFO are read back as {@code {client:N}}.
 *
 * <p>Each replay starts from FLUSHALL, SCRIPT FLUSH and notifications off, with no subscription
 * left by an earlier replay's connections (closing them is asynchronous on both servers, so it
 * waits, bounded, until PUBSUB shows none).
 *
 * <p>Thread rule: one test thread.
 */
final class PubSubReplay {

    /** The first disagreement: the step, the connection whose frames differ, and both sides' frames. */
    record Mismatch(int index, PubSubScenario.Step step, int connection, List<String> redis, List<String> lacewing) {
    }

    private static final int REDIS = 0;
    private static final int LACEWING = 1;
    /** How long a replay waits for the previous one's subscriptions to be gone. */
    private static final long SETTLE_MILLIS = 5_000;

    private final int[] ports;
    /** Each server's client id of each connection, as CLIENT ID answered when it connected. */
    private final long[][] ids = new long[2][PubSubScenario.CONNECTIONS];
    /** Each server's every client id of the replay's connections, those closed by QUIT included: which connection it was. */
    private final List<Map<Long, Integer>> everyId = List.of(new HashMap<>(), new HashMap<>());
    private int replays;
    private long frames;
    private long pushes;
    private long steps;

    PubSubReplay(int redisPort, int lacewingPort) {
        this.ports = new int[] {redisPort, lacewingPort};
    }

    /** What the compared frames were, as evidence of what a run reached. */
    String tally() {
        return steps + " steps, " + frames + " frames compared, " + pushes + " of them pushed messages";
    }

    int replays() {
        return replays;
    }

    Optional<Mismatch> firstMismatch(List<PubSubScenario.Step> scenario) {
        replays++;
        RespClient[][] connections = new RespClient[2][PubSubScenario.CONNECTIONS];
        try {
            for (int server = 0; server < 2; server++) {
                reset(ports[server]);
                for (int c = 0; c < PubSubScenario.CONNECTIONS; c++) {
                    connections[server][c] = connect(server, c);
                }
            }
            for (int i = 0; i < scenario.size(); i++) {
                Optional<Mismatch> mismatch = step(i, scenario.get(i), connections);
                steps++;
                if (mismatch.isPresent()) {
                    return mismatch;
                }
            }
            return Optional.empty();
        } finally {
            for (RespClient[] side : connections) {
                for (RespClient client : side) {
                    if (client != null) {
                        client.close();
                    }
                }
            }
        }
    }

    private Optional<Mismatch> step(int index, PubSubScenario.Step step, RespClient[][] connections) {
        String marker = "sync:" + index;
        int stepping = step.connection();
        boolean quits = step.calls().size() == 1 && step.calls().get(0).name().equals("QUIT");
        int wait = step.calls().indexOf(PubSubScenario.WAIT);
        List<Call> first = wait < 0 ? step.calls() : step.calls().subList(0, wait);
        List<Call> rest = wait < 0 ? List.of() : step.calls().subList(wait + 1, step.calls().size());
        for (int server = 0; server < 2; server++) {
            connections[server][stepping].send(request(server, first, wait < 0 && !quits ? marker : null));
        }
        if (wait >= 0) {
            pause(PubSubScenario.WAIT_MILLIS);
            for (int server = 0; server < 2; server++) {
                connections[server][stepping].send(request(server, rest, null));
            }
            // A pass's BCAST invalidations follow the pass's replies: the marker waits for the
            // next pass, so that an expiry's are before it.
            pause(PubSubScenario.WAIT_MILLIS);
            for (int server = 0; server < 2; server++) {
                connections[server][stepping].send(request(server, List.of(), marker));
            }
        }
        List<List<String>> read = new ArrayList<>();
        for (int server = 0; server < 2; server++) {
            List<String> frames = quits ? untilClosed(connections[server][stepping])
                : untilMarker(connections[server][stepping], marker);
            read.add(brokenNamed(server, naming(server, step, frames)));
            if (quits) {
                connections[server][stepping].close();
                connections[server][stepping] = connect(server, stepping);
            }
        }
        if (!agree(step, read.get(REDIS), read.get(LACEWING), true)) {
            return Optional.of(new Mismatch(index, step, stepping, read.get(REDIS), read.get(LACEWING)));
        }
        byte[] ping = RespClient.encode(RespClient.toBytes("PING", marker));
        for (int server = 0; server < 2; server++) {
            for (int c = 0; c < PubSubScenario.CONNECTIONS; c++) {
                if (c != stepping) {
                    connections[server][c].send(ping);
                }
            }
        }
        for (int c = 0; c < PubSubScenario.CONNECTIONS; c++) {
            if (c == stepping) {
                continue;
            }
            List<String> fromRedis = brokenNamed(REDIS, untilMarker(connections[REDIS][c], marker));
            List<String> fromLacewing = brokenNamed(LACEWING, untilMarker(connections[LACEWING][c], marker));
            if (!agree(step, fromRedis, fromLacewing, false)) {
                return Optional.of(new Mismatch(index, step, c, fromRedis, fromLacewing));
            }
        }
        return Optional.empty();
    }

    private RespClient connect(int server, int connection) {
        RespClient client = RespClient.connect(ports[server]);
        String id = client.call("CLIENT", "ID");
        ids[server][connection] = Long.parseLong(id.substring(1, id.length() - 2));
        everyId.get(server).put(ids[server][connection], connection);
        return client;
    }

    /** {@code calls} (each {@code {client:N}} as this server's id) and, unless null, the marker PING. */
    private byte[] request(int server, List<Call> calls, String marker) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        for (Call call : calls) {
            List<byte[]> arguments = new ArrayList<>(call.arguments());
            for (int i = 0; i < arguments.size(); i++) {
                String word = RespClient.text(arguments.get(i));
                if (word.startsWith("{client:") && word.endsWith("}")) {
                    int connection = Integer.parseInt(word.substring(8, word.length() - 1));
                    arguments.set(i, RespClient.bytes(Long.toString(ids[server][connection])));
                }
            }
            request.writeBytes(RespClient.encode(arguments));
        }
        if (marker != null) {
            request.writeBytes(RespClient.encode(RespClient.toBytes("PING", marker)));
        }
        return request.toByteArray();
    }

    /** The frames of a step that asks for a redirection's id, with each connection's id written {@code {client:N}}. */
    private List<String> naming(int server, PubSubScenario.Step step, List<String> frames) {
        boolean asks = step.calls().stream().anyMatch(call -> call.words().toUpperCase().startsWith("CLIENT GETREDIR")
            || call.words().toUpperCase().startsWith("CLIENT TRACKINGINFO"));
        if (!asks) {
            return frames;
        }
        List<String> named = new ArrayList<>();
        for (String frame : frames) {
            for (int c = 0; c < PubSubScenario.CONNECTIONS; c++) {
                String id = ":" + ids[server][c] + "\r\n";
                frame = frame.equals(id) ? ":{client:" + c + "}\r\n"
                    : frame.replace("\r\n" + id, "\r\n:{client:" + c + "}\r\n");
            }
            named.add(frame);
        }
        return named;
    }

    private static final String REDIRECT_BROKEN = ">2\r\n$21\r\ntracking-redir-broken\r\n:";

    /**
     * The frames with the id in each tracking-redir-broken push written {@code {client:N}}: it names
     * a connection that has gone (after QUIT), whose id each server chose.
     */
    private List<String> brokenNamed(int server, List<String> frames) {
        List<String> named = new ArrayList<>(frames.size());
        for (String frame : frames) {
            if (frame.startsWith(REDIRECT_BROKEN)) {
                String id = frame.substring(REDIRECT_BROKEN.length(), frame.length() - 2);
                Integer connection = everyId.get(server).get(Long.parseLong(id));
                frame = connection == null ? frame : REDIRECT_BROKEN + "{client:" + connection + "}\r\n";
            }
            named.add(frame);
        }
        return named;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Frame by frame; on the stepping connection of a one-call step, its first frame that is not a
     * push is its reply, compared by the call's check after DeliberateDifferences.
     */
    private boolean agree(PubSubScenario.Step step, List<String> fromRedis, List<String> fromLacewing,
                          boolean stepping) {
        if (fromRedis.size() != fromLacewing.size()) {
            return false;
        }
        boolean leavesAll = stepping && step.calls().size() == 1 && step.calls().get(0).arguments().size() == 1
            && step.calls().get(0).name().endsWith("UNSUBSCRIBE");
        List<String> redis = inDictOrder(stepping ? ownPushesLast(fromRedis) : invalidationsLast(fromRedis), leavesAll);
        List<String> lacewing = inDictOrder(stepping ? ownPushesLast(fromLacewing) : invalidationsLast(fromLacewing),
            leavesAll);
        boolean replySeen = !stepping || step.calls().size() != 1;
        for (int i = 0; i < redis.size(); i++) {
            String a = redis.get(i);
            String b = lacewing.get(i);
            frames++;
            boolean push = a.startsWith(">") || a.startsWith("*3\r\n$7\r\nmessage\r\n")
                || a.startsWith("*4\r\n$8\r\npmessage\r\n") || a.startsWith("*3\r\n$8\r\nsmessage\r\n");
            pushes += push ? 1 : 0;
            if (!replySeen && !a.startsWith(">")) {
                replySeen = true;
                Call call = step.calls().get(0);
                String words = call.words();
                if (!call.check().agree(DeliberateDifferences.normalize(words, a),
                    DeliberateDifferences.normalize(words, b))) {
                    return false;
                }
            } else if (!a.equals(b)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A step's frames on its own connection with its RESP3 pushes moved after its replies, each
     * kept in order. Where a push caused by a client's own command goes among the replies is a
     * deliberate difference: Redis 7.0 writes it wherever the command's code publishes, before
     * the reply of one command and after that of another, and inside an aggregate reply or EXEC's
     * array now and then (a protocol error; Redis 7.2 sends such pushes after the reply, #12326);
     * Lacewing never splits a reply. So a step's replies are compared in order, and its pushes.
     * Its invalidations come last: both servers send BCAST ones at the end of the pass, after every
     * push of the pass.
     */
    private static List<String> ownPushesLast(List<String> frames) {
        List<String> ordered = new ArrayList<>();
        frames.stream().filter(frame -> !frame.startsWith(">")).forEach(ordered::add);
        frames.stream().filter(frame -> frame.startsWith(">") && !frame.startsWith(INVALIDATE)).forEach(ordered::add);
        frames.stream().filter(frame -> frame.startsWith(INVALIDATE)).forEach(ordered::add);
        return ordered;
    }

    private static final String INVALIDATE = ">2\r\n$10\r\ninvalidate\r\n";
    private static final String INVALIDATE_MESSAGE = "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n";

    /**
     * Another connection's frames with its invalidations (RESP3 pushes or RESP2 messages on
     * __redis__:invalidate) moved after its other pushes, before the marker's reply, each kept in
     * order: BCAST invalidations go out at the end of the writer's pass, after the pass's published
     * messages and keyspace events; Lacewing sends those of active expiry at once.
     */
    private static List<String> invalidationsLast(List<String> frames) {
        if (frames.isEmpty()) {
            return frames;
        }
        List<String> before = frames.subList(0, frames.size() - 1);
        List<String> ordered = new ArrayList<>();
        before.stream().filter(frame -> !invalidation(frame)).forEach(ordered::add);
        before.stream().filter(PubSubReplay::invalidation).forEach(ordered::add);
        ordered.add(frames.get(frames.size() - 1));
        return ordered;
    }

    private static boolean invalidation(String frame) {
        return frame.startsWith(INVALIDATE) || frame.startsWith(INVALIDATE_MESSAGE);
    }

    /**
     * The frames with the orders that are Redis's dict order made canonical, the same on both
     * sides: Redis 7.0 iterates a dict, whose order its random hash seed changes from process to
     * process, to send one publish's pattern messages (server.pubsub_patterns), and to leave every
     * channel of an UNSUBSCRIBE, PUNSUBSCRIBE or SUNSUBSCRIBE without arguments (the client's
     * channels). So a run of pattern messages for the same channel and message is sorted by
     * pattern, and when {@code leavesAll} a run of unsubscribe confirmations has its names sorted,
     * each count (which falls by one a frame) left where it is.
     */
    static List<String> inDictOrder(List<String> frames, boolean leavesAll) {
        List<String> canonical = new ArrayList<>(frames);
        for (int start = 0; start < canonical.size(); ) {
            String kind = kind(canonical.get(start));
            int end = start + 1;
            boolean patternMessage = kind.equals("pmessage");
            boolean leaving = leavesAll && kind.endsWith("unsubscribe");
            while (end < canonical.size() && kind(canonical.get(end)).equals(kind) && (patternMessage || leaving)
                && (!patternMessage || sameMessage(canonical.get(start), canonical.get(end)))) {
                end++;
            }
            if (end - start > 1) {
                List<String> run = canonical.subList(start, end);
                if (patternMessage) {
                    run.sort(null);
                } else {
                    List<String> names = new ArrayList<>();
                    run.forEach(frame -> names.add(RespClient.elements(frame).get(1)));
                    names.sort(null);
                    for (int i = 0; i < run.size(); i++) {
                        List<String> elements = new ArrayList<>(RespClient.elements(run.get(i)));
                        elements.set(1, names.get(i));
                        run.set(i, RespClient.aggregate(run.get(i).charAt(0), elements));
                    }
                }
            }
            start = end;
        }
        return canonical;
    }

    /** The first element of a pub/sub frame (message, pmessage, unsubscribe...), or "" for any other frame. */
    private static String kind(String frame) {
        if (!frame.startsWith("*") && !frame.startsWith(">") || frame.startsWith("*-1")) {
            return "";
        }
        List<String> elements = RespClient.elements(frame);
        if (elements.size() < 3 || !elements.get(0).startsWith("$") || elements.get(0).startsWith("$-1")) {
            return "";
        }
        String first = elements.get(0);
        return first.substring(first.indexOf("\r\n") + 2, first.length() - 2);
    }

    /** Two pattern messages of the same publish: the same channel and message. */
    private static boolean sameMessage(String a, String b) {
        List<String> first = RespClient.elements(a);
        List<String> second = RespClient.elements(b);
        return first.size() == 4 && second.size() == 4 && first.subList(2, 4).equals(second.subList(2, 4));
    }

    /**
     * Every frame up to and including the marker PING's reply (in either form: subscribed RESP2 or
     * not), a push that Redis 7.0 wrote inside a reply taken out after it ({@link #ownPushesLast}).
     */
    private static List<String> untilMarker(RespClient client, String marker) {
        List<String> frames = new ArrayList<>();
        String tail = "\r\n" + marker + "\r\n";
        while (true) {
            String frame;
            List<byte[]> inside = new ArrayList<>();
            try {
                frame = RespClient.text(client.readReplyLiftingPushes(inside));
            } catch (RuntimeException e) {
                frames.add("<no reply: " + e.getMessage() + ">");
                return frames;
            }
            frames.add(frame);
            inside.forEach(push -> frames.add(RespClient.text(push)));
            if (frame.endsWith(tail) && (frame.startsWith("$") || frame.startsWith("*2\r\n$4\r\npong\r\n"))) {
                return frames;
            }
        }
    }

    /** Every frame until the server closes the connection (after QUIT), then a mark that it closed. */
    private static List<String> untilClosed(RespClient client) {
        List<String> frames = new ArrayList<>();
        while (true) {
            try {
                frames.add(RespClient.text(client.readReply()));
            } catch (RuntimeException e) {
                frames.add("<closed>");
                return frames;
            }
        }
    }

    /** FLUSHALL, SCRIPT FLUSH, notifications off, and no subscription left (bounded wait). */
    private static void reset(int port) {
        try (RespClient admin = RespClient.connect(port)) {
            admin.call("FLUSHALL");
            admin.call("SCRIPT", "FLUSH");
            admin.call("CONFIG", "SET", "notify-keyspace-events", "");
            long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000L;
            while (!admin.call("PUBSUB", "NUMPAT").equals(":0\r\n")
                || !admin.call("PUBSUB", "CHANNELS").equals("*0\r\n")
                || !admin.call("PUBSUB", "SHARDCHANNELS").equals("*0\r\n")) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("subscriptions of an earlier replay still there on port " + port);
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
    }
}
