package dev.lacewing.benchmarks.load;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Finds where each RESP reply ends in a byte stream, without materialising it: bulk payloads
 * are skipped, not copied, and a reply may be split across reads anywhere, so nothing is
 * accumulated between reads. Understands RESP2 and RESP3 types. For each complete top-level
 * reply it tells the listener whether it was a value, a nil or an error, and its size in bytes;
 * the text of the latest error is kept for the report. Owned by one connection's event-loop
 * thread; allocates only on errors and on nesting deeper than eight levels.
 */
public final class ReplyScanner {

    public static final int VALUE = 0;
    public static final int NIL = 1;
    public static final int ERROR = 2;

    /** Told about each complete top-level reply, in order. */
    public interface Listener {
        void onReply(int outcome, int bytes);
    }

    private static final int TYPE = 0;
    private static final int LENGTH = 1;
    private static final int LINE = 2;
    private static final int BULK = 3;
    private static final int ERROR_TEXT_LIMIT = 256;

    private int state = TYPE;
    private byte lengthType;
    private long length;
    private boolean negative;
    private long bulkLeft;
    private long[] remaining = new long[8];
    private int depth;
    private int outcome;
    private int replyBytes;
    private boolean capturingError;
    private final StringBuilder errorText = new StringBuilder();
    private String lastError = "";

    /** The text of the latest top-level error reply, without its '-'. */
    public String lastError() {
        return lastError;
    }

    /**
     * Consumes every readable byte of {@code in}, telling {@code listener} of each reply that
     * completes. A byte that cannot start a RESP value is an IllegalStateException.
     */
    public void scan(ByteBuf in, Listener listener) {
        while (in.isReadable()) {
            if (state == BULK) {
                int skip = (int) Math.min(bulkLeft, in.readableBytes());
                in.skipBytes(skip);
                replyBytes += skip;
                bulkLeft -= skip;
                if (bulkLeft == 0) {
                    state = TYPE;
                    elementDone(listener);
                }
                continue;
            }
            byte b = in.readByte();
            replyBytes++;
            switch (state) {
                case TYPE -> type(b);
                case LENGTH -> {
                    if (b >= '0' && b <= '9') {
                        length = length * 10 + (b - '0');
                    } else if (b == '-') {
                        negative = true;
                    } else if (b == '\n') {
                        lengthDone(listener);
                    } else if (b != '\r') {
                        throw new IllegalStateException("protocol error: bad length byte " + (b & 0xff));
                    }
                }
                default -> { // LINE
                    if (b == '\n') {
                        state = TYPE;
                        if (capturingError) {
                            capturingError = false;
                            lastError = errorText.toString();
                        }
                        elementDone(listener);
                    } else if (capturingError && b != '\r' && errorText.length() < ERROR_TEXT_LIMIT) {
                        errorText.append((char) (b & 0xff));
                    }
                }
            }
        }
    }

    private void type(byte b) {
        if (depth == 0) {
            outcome = VALUE;
        }
        switch (b) {
            case '+', ':', ',', '(', '#' -> state = LINE;
            case '_' -> {
                if (depth == 0) {
                    outcome = NIL;
                }
                state = LINE;
            }
            case '-' -> {
                if (depth == 0) {
                    outcome = ERROR;
                    capturingError = true;
                    errorText.setLength(0);
                }
                state = LINE;
            }
            case '$', '!', '=', '*', '~', '>', '%', '|' -> {
                lengthType = b;
                length = 0;
                negative = false;
                state = LENGTH;
            }
            default -> throw new IllegalStateException("protocol error: unexpected byte " + (b & 0xff));
        }
    }

    private void lengthDone(Listener listener) {
        long count = negative ? -length : length;
        state = TYPE;
        switch (lengthType) {
            case '$', '!', '=' -> {
                if (count < 0) {
                    if (depth == 0) {
                        outcome = NIL;
                    }
                    elementDone(listener);
                } else {
                    if (depth == 0 && lengthType == '!') {
                        outcome = ERROR;
                    }
                    bulkLeft = count + 2;
                    state = BULK;
                }
            }
            default -> {
                long elements = lengthType == '%' || lengthType == '|' ? count * 2 : count;
                if (count < 0 && depth == 0) {
                    outcome = NIL;
                }
                if (elements <= 0) {
                    elementDone(listener);
                } else {
                    if (depth == remaining.length) {
                        remaining = Arrays.copyOf(remaining, depth * 2);
                    }
                    remaining[depth++] = elements;
                }
            }
        }
    }

    /** One value ended: count it in its enclosing aggregates; a top-level one is a reply. */
    private void elementDone(Listener listener) {
        while (depth > 0) {
            if (--remaining[depth - 1] > 0) {
                return;
            }
            depth--;
        }
        int bytes = replyBytes;
        replyBytes = 0;
        listener.onReply(outcome, bytes);
    }
}
