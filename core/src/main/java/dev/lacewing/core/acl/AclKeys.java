package dev.lacewing.core.acl;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandDetails.KeySpec;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.Numbers;
import java.util.Arrays;

/**
 * The keys a request names and the permissions each needs, from the command's key specs as Redis's
 * getKeysUsingKeySpecs finds them: {@code access} needs read, {@code insert}, {@code update} and
 * {@code delete} need write. SET, BITFIELD and SORT, whose key specs have variable flags or unknown
 * parts, get the keys and flags of their Redis getkeys procs. A key the spec's positions name but no
 * key spec finds (a plugin's command without key specs) needs both.
 *
 * <p>Thread rule: a value of one check, on the thread running it.
 */
final class AclKeys {

    /** Argument index and needed permissions, packed: index in the high half. */
    private long[] keys = new long[4];
    private int count;

    int count() {
        return count;
    }

    int position(int i) {
        return (int) (keys[i] >>> 32);
    }

    int permissions(int i) {
        return (int) keys[i];
    }

    static AclKeys of(CommandSpec spec, Arguments args) {
        AclKeys found = new AclKeys();
        switch (spec.name()) {
            case "set" -> {
                found.add(1, setReads(args) ? AclSelector.READ_WRITE : AclSelector.WRITE);
                return found;
            }
            case "bitfield" -> {
                found.add(1, bitfieldWrites(args) ? AclSelector.READ_WRITE : AclSelector.READ);
                return found;
            }
            case "sort" -> {
                // sortGetKeys: the sorted key is read, a STORE destination written.
                found.add(1, AclSelector.READ);
                for (int i = 0; i < spec.keyCount(args); i++) {
                    int position = spec.keyArgument(args, i);
                    if (!found.has(position)) {
                        found.add(position, AclSelector.WRITE);
                    }
                }
                return found;
            }
            default -> {
            }
        }
        for (KeySpec keySpec : spec.details().keySpecs()) {
            found.addFrom(keySpec, args);
        }
        if (spec.scope() == KeyScope.KEYS) {
            int named = spec.keyCount(args);
            for (int i = 0; i < named; i++) {
                int position = spec.keyArgument(args, i);
                if (!found.has(position)) {
                    found.add(position, AclSelector.READ_WRITE);
                }
            }
        }
        return found;
    }

    /** setGetKeys: SET's key is read as well as written with GET (its key spec has variable flags). */
    private static boolean setReads(Arguments args) {
        for (int i = 3; i < args.count(); i++) {
            if (args.is(i, "GET")) {
                return true;
            }
        }
        return false;
    }

    /** bitfieldGetKeys: BITFIELD writes unless every operation is a GET (an error counts as a write). */
    private static boolean bitfieldWrites(Arguments args) {
        for (int i = 2; i < args.count(); i++) {
            int left = args.count() - i - 1;
            if (args.is(i, "GET") && left >= 2) {
                i += 2;
            } else if (args.is(i, "OVERFLOW") && left >= 1) {
                i += 1;
            } else {
                return true;
            }
        }
        return false;
    }

    private void addFrom(KeySpec spec, Arguments args) {
        int argc = args.count();
        int first;
        switch (spec.beginSearch().type()) {
            case "index" -> first = spec.beginSearch().index();
            case "keyword" -> {
                int start = spec.beginSearch().startFrom();
                int from = start > 0 ? start : argc + start;
                int to = start > 0 ? argc - 1 : 1;
                int step = start > 0 ? 1 : -1;
                first = -1;
                for (int i = from; step > 0 ? i <= to : i >= to; i += step) {
                    if (i >= argc || i < 1) {
                        break;
                    }
                    if (args.is(i, spec.beginSearch().keyword())) {
                        first = i + 1;
                        break;
                    }
                }
                if (first < 0) {
                    return;
                }
            }
            default -> {
                return;
            }
        }
        int last;
        int step;
        switch (spec.findKeys().type()) {
            case "range" -> {
                int lastKey = spec.findKeys().lastKey();
                int limit = spec.findKeys().limit();
                step = spec.findKeys().keyStep();
                if (lastKey >= 0) {
                    last = first + lastKey;
                } else if (limit <= 1) {
                    last = argc + lastKey;
                } else {
                    last = first + ((argc - first) / limit + lastKey);
                }
            }
            case "keynum" -> {
                int numKeysAt = first + spec.findKeys().keyNumIndex();
                if (numKeysAt >= argc) {
                    return;
                }
                long numKeys;
                try {
                    numKeys = Numbers.parseLong(args.array(), args.offset(numKeysAt), args.length(numKeysAt));
                } catch (RuntimeException e) {
                    return;
                }
                if (numKeys < 0 || numKeys > argc) {
                    return;
                }
                first += spec.findKeys().firstKey();
                step = spec.findKeys().keyStep();
                last = first + (int) (numKeys - 1) * step;
            }
            default -> {
                return;
            }
        }
        if (step <= 0) {
            return;
        }
        int permissions = permissions(spec);
        for (int i = first; i <= last; i += step) {
            if (i >= argc || i < 1) {
                break;
            }
            add(i, permissions);
        }
    }

    private static int permissions(KeySpec spec) {
        int permissions = 0;
        for (String flag : spec.flags()) {
            switch (flag) {
                case "access" -> permissions |= AclSelector.READ;
                case "insert", "update", "delete" -> permissions |= AclSelector.WRITE;
                default -> {
                }
            }
        }
        return permissions;
    }

    private boolean has(int position) {
        for (int i = 0; i < count; i++) {
            if (position(i) == position) {
                return true;
            }
        }
        return false;
    }

    private void add(int position, int permissions) {
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
        }
        keys[count++] = ((long) position << 32) | permissions;
    }
}
