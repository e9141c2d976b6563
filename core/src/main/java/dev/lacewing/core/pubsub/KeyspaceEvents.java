package dev.lacewing.core.pubsub;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.KeyspaceEventClass;
import dev.lacewing.api.Server;
import dev.lacewing.core.keyspace.KeyspaceListener;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keyspace notifications, as Redis's notify.c: an event on a key is published, through the
 * ordinary PUBLISH path, as {@code __keyspace@<db>__:<key>} with the event name as message and as
 * {@code __keyevent@<db>__:<event>} with the key as message, for the classes
 * {@code notify-keyspace-events} enables. Commands call {@link #notify} once per event, after their
 * change, in the order Redis's notifyKeyspaceEvent calls come; the keyspace reports the keys it
 * creates ({@code new}), expires and evicts ({@link KeyspaceListener}).
 *
 * <p>Off by default: then an event costs one read of {@link #flags} (a volatile int that CONFIG SET
 * replaces) and one branch, and allocates nothing. Keys stay bytes throughout.
 *
 * <p>Thread rule: any thread; an event is published by the thread that ran the command (or the
 * expiry, or the eviction), so one thread's events reach every subscriber in the order they happened.
 */
public final class KeyspaceEvents implements KeyspaceListener {

    /** Redis's NOTIFY_* classes, bit for bit: the api's {@link KeyspaceEventClass}. */
    public static final int KEYSPACE = KeyspaceEventClass.KEYSPACE;
    public static final int KEYEVENT = KeyspaceEventClass.KEYEVENT;
    public static final int GENERIC = KeyspaceEventClass.GENERIC;
    public static final int STRING = KeyspaceEventClass.STRING;
    public static final int LIST = KeyspaceEventClass.LIST;
    public static final int SET = KeyspaceEventClass.SET;
    public static final int HASH = KeyspaceEventClass.HASH;
    public static final int ZSET = KeyspaceEventClass.ZSET;
    public static final int EXPIRED = KeyspaceEventClass.EXPIRED;
    public static final int EVICTED = KeyspaceEventClass.EVICTED;
    public static final int STREAM = KeyspaceEventClass.STREAM;
    public static final int KEY_MISS = KeyspaceEventClass.KEY_MISS;
    public static final int LOADED = KeyspaceEventClass.LOADED;
    public static final int MODULE = KeyspaceEventClass.MODULE;
    public static final int NEW = KeyspaceEventClass.NEW;
    /** What "A" stands for: g$lshzxet (not m, d, n). */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM;

    /** The error of a class character Redis does not know, in its words. */
    public static final String INVALID = "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";

    private static final byte[] KEYSPACE_PREFIX = "__keyspace@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYEVENT_PREFIX = "__keyevent@".getBytes(StandardCharsets.US_ASCII);

    private final PubSub pubSub;
    private volatile int flags;

    public KeyspaceEvents(PubSub pubSub) {
        this.pubSub = pubSub;
    }

    /** Whether any event is published at all: a channel (K or E) and a class are on. */
    public boolean publishing() {
        int current = flags;
        return (current & (KEYSPACE | KEYEVENT)) != 0 && (current & ~(KEYSPACE | KEYEVENT)) != 0;
    }

    /** Takes a {@code notify-keyspace-events} value ({@link #parse}); on CONFIG SET's thread. */
    public void configure(String classes) {
        flags = parse(classes);
    }

    /**
     * Redis's keyspaceEventsStringToFlags: each character adds its class, "A" the classes of
     * g$lshzxet; IllegalArgumentException with Redis's message for any other character.
     */
    public static int parse(String classes) {
        int parsed = 0;
        for (int i = 0; i < classes.length(); i++) {
            parsed |= switch (classes.charAt(i)) {
                case 'A' -> ALL;
                case 'g' -> GENERIC;
                case '$' -> STRING;
                case 'l' -> LIST;
                case 's' -> SET;
                case 'h' -> HASH;
                case 'z' -> ZSET;
                case 'x' -> EXPIRED;
                case 'e' -> EVICTED;
                case 'K' -> KEYSPACE;
                case 'E' -> KEYEVENT;
                case 't' -> STREAM;
                case 'm' -> KEY_MISS;
                case 'd' -> MODULE;
                case 'n' -> NEW;
                default -> throw new IllegalArgumentException(INVALID);
            };
        }
        return parsed;
    }

    /**
     * Redis 7.0's keyspaceEventsFlagsToString, the form CONFIG GET replies: "A" when every class
     * of it is on (and then neither d nor n, as Redis 7.0 writes it), else g$lshzxetdn in that
     * order; then K, E and m. So "KEA" reads back as "AKE".
     */
    public static String format(int flags) {
        StringBuilder text = new StringBuilder();
        if ((flags & ALL) == ALL) {
            text.append('A');
        } else {
            char[] classes = {'g', '$', 'l', 's', 'h', 'z', 'x', 'e', 't', 'd', 'n'};
            int[] bits = {GENERIC, STRING, LIST, SET, HASH, ZSET, EXPIRED, EVICTED, STREAM, MODULE, NEW};
            for (int i = 0; i < classes.length; i++) {
                if ((flags & bits[i]) != 0) {
                    text.append(classes[i]);
                }
            }
        }
        if ((flags & KEYSPACE) != 0) {
            text.append('K');
        }
        if ((flags & KEYEVENT) != 0) {
            text.append('E');
        }
        if ((flags & KEY_MISS) != 0) {
            text.append('m');
        }
        return text.toString();
    }

    /**
     * A value kept whole: every class it turns on, one character each in the order g$lshzxetdnKEm.
     * Not {@link #format}'s form, which drops d and n beside "A" (Redis keeps them on while CONFIG
     * GET does not show them); IllegalArgumentException with Redis's message if invalid.
     */
    public static String canonical(String classes) {
        int parsed = parse(classes);
        StringBuilder text = new StringBuilder();
        char[] names = {'g', '$', 'l', 's', 'h', 'z', 'x', 'e', 't', 'd', 'n', 'K', 'E', 'm'};
        int[] bits = {GENERIC, STRING, LIST, SET, HASH, ZSET, EXPIRED, EVICTED, STREAM, MODULE, NEW, KEYSPACE,
            KEYEVENT, KEY_MISS};
        for (int i = 0; i < names.length; i++) {
            if ((parsed & bits[i]) != 0) {
                text.append(names[i]);
            }
        }
        return text.toString();
    }

    /** A kept value ({@link #canonical}) in the form CONFIG GET replies ({@link #format}). */
    public static String display(String classes) {
        return format(parse(classes));
    }

    // ---- events from commands ----------------------------------------------------------------

    /** An event on the key in argument {@code index} of the command, in the connection's database. */
    public static void notify(CommandContext ctx, int type, String event, Arguments args, int index) {
        notify(ctx, type, event, -1, args.array(), args.offset(index), args.length(index));
    }

    /** An event on a key in the connection's database. */
    public static void notify(CommandContext ctx, int type, String event, byte[] key) {
        notify(ctx, type, event, -1, key, 0, key.length);
    }

    /**
     * An event on a key of database {@code database} (-1: the connection's), as MOVE and COPY ... DB
     * name one; through the api's {@link Server}, so a context of any server (a test's) serves.
     */
    public static void notify(CommandContext ctx, int type, String event, int database, byte[] key, int offset,
                              int length) {
        Server server = ctx.server();
        if ((server.keyspaceEventClasses() & type) != 0) {
            server.notifyKeyspaceEvent(type, event, database < 0 ? ctx.keyspace().index() : database, key, offset,
                length);
        }
    }

    /**
     * keymiss for the key in argument {@code index}, which a write command looked up for reading
     * and did not find: Redis's lookupKeyRead in SORT, the *STORE commands' sources, COPY's
     * source, GETDEL... (a read-only command's misses are reported by its keyspace view).
     */
    public static void missed(CommandContext ctx, Arguments args, int index) {
        notify(ctx, KEY_MISS, "keymiss", args, index);
    }

    /**
     * Redis's keymiss (class m): a read lookup found no key, as lookupKey notifies unless the
     * lookup is a write's or asked for no notification (OBJECT, SCAN's TYPE filter). While m is
     * off a miss costs one volatile read and a branch.
     */
    public void missed(Keyspace keyspace, byte[] key, int offset, int length) {
        if ((flags & KEY_MISS) != 0) {
            publish(KEY_MISS, "keymiss", keyspace.index(), key, offset, length);
        }
    }

    // ---- events from the keyspace -----------------------------------------------------------

    @Override
    public void created(int database, byte[] key, int offset, int length) {
        if ((flags & NEW) != 0) {
            publish(NEW, "new", database, key, offset, length);
        }
    }

    @Override
    public void expired(int database, byte[] key, int offset, int length) {
        if ((flags & EXPIRED) != 0) {
            publish(EXPIRED, "expired", database, key, offset, length);
        }
    }

    @Override
    public void evicted(int database, byte[] key, int offset, int length) {
        if ((flags & EVICTED) != 0) {
            publish(EVICTED, "evicted", database, key, offset, length);
        }
    }

    /** Redis's notifyKeyspaceEvent once the class is on: the keyspace channel first, then the keyevent one. */
    /** The classes enabled now: the api's {@link Server#keyspaceEventClasses}. */
    public int classes() {
        return flags;
    }

    /** An event of class {@code type}, published where enabled: the api's {@link Server#notifyKeyspaceEvent}. */
    public void publishIfEnabled(int type, String event, int database, byte[] key, int offset, int length) {
        if ((flags & type) != 0) {
            publish(type, event, database, key, offset, length);
        }
    }

    private void publish(int type, String event, int database, byte[] key, int offset, int length) {
        int current = flags;
        if ((current & type) == 0 || !pubSub.hasSubscribers()) {
            return;
        }
        byte[] eventName = event.getBytes(StandardCharsets.US_ASCII);
        byte[] db = Integer.toString(database).getBytes(StandardCharsets.US_ASCII);
        if ((current & KEYSPACE) != 0) {
            pubSub.publish(SubscriptionKind.CHANNEL, ChannelName.wrap(channel(KEYSPACE_PREFIX, db, key, offset,
                length)), eventName);
        }
        if ((current & KEYEVENT) != 0) {
            pubSub.publish(SubscriptionKind.CHANNEL, ChannelName.wrap(channel(KEYEVENT_PREFIX, db, eventName, 0,
                eventName.length)), Arrays.copyOfRange(key, offset, offset + length));
        }
    }

    /** {@code <prefix><db>__:<suffix>} */
    private static byte[] channel(byte[] prefix, byte[] db, byte[] suffix, int offset, int length) {
        byte[] channel = new byte[prefix.length + db.length + 3 + length];
        System.arraycopy(prefix, 0, channel, 0, prefix.length);
        System.arraycopy(db, 0, channel, prefix.length, db.length);
        int at = prefix.length + db.length;
        channel[at] = '_';
        channel[at + 1] = '_';
        channel[at + 2] = ':';
        System.arraycopy(suffix, offset, channel, at + 3, length);
        return channel;
    }
}
