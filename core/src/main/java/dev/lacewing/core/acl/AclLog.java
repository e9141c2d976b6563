package dev.lacewing.core.acl;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * ACL LOG: the newest denials first, at most {@code acllog-max-len}. A denial like one of the ten
 * newest entries (same reason, context, object and user, within 60 s) counts on that entry and
 * moves it to the front, as Redis's addACLLogEntry does.
 *
 * <p>Thread rule: synchronized; any thread adds and reads.
 */
public final class AclLog {

    /** Why a request was refused, as ACL LOG's {@code reason} says it. */
    public enum Reason {
        COMMAND("command"), KEY("key"), AUTH("auth"), CHANNEL("channel");

        final String text;

        Reason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** An entry as ACL LOG shows it; {@code context} is toplevel, multi or lua. */
    public record Entry(long count, Reason reason, String context, String object, String username, long millis,
                        String clientInfo) {
    }

    private static final long GROUPING_MILLIS = 60_000;
    private static final int SCANNED_FOR_GROUPING = 10;

    private final LinkedList<Entry> entries = new LinkedList<>();
    private volatile long maxLength;

    AclLog(long maxLength) {
        this.maxLength = maxLength;
    }

    void maxLength(long length) {
        this.maxLength = length;
        synchronized (this) {
            trim();
        }
    }

    public synchronized void add(Reason reason, String context, String object, String username, String clientInfo) {
        long now = System.currentTimeMillis();
        int scanned = 0;
        for (var it = entries.listIterator(); it.hasNext() && scanned < SCANNED_FOR_GROUPING; scanned++) {
            Entry e = it.next();
            if (e.reason() == reason && e.context().equals(context) && Math.abs(e.millis() - now) <= GROUPING_MILLIS
                && e.object().equals(object) && e.username().equals(username)) {
                it.remove();
                entries.addFirst(new Entry(e.count() + 1, reason, context, object, username, now, clientInfo));
                return;
            }
        }
        entries.addFirst(new Entry(1, reason, context, object, username, now, clientInfo));
        trim();
    }

    private void trim() {
        while (entries.size() > maxLength) {
            entries.removeLast();
        }
    }

    /** The newest {@code count} entries. */
    public synchronized List<Entry> newest(long count) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries) {
            if (out.size() >= count) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    public synchronized void reset() {
        entries.clear();
    }
}
