package dev.lacewing.core.diagnostics;

import dev.lacewing.api.Arguments;

/**
 * Which arguments of a command are secrets that the slow log and MONITOR show as "(redacted)", as
 * Redis 7.0's redactClientCommandArgument marks them: AUTH's arguments, HELLO's AUTH username and
 * password, the value CONFIG SET gives a sensitive setting (requirepass, masterauth), and every
 * argument of ACL SETUSER after the subcommand (its rules may hold passwords).
 *
 * <p>Thread rule: stateless.
 */
public final class Redaction {

    private Redaction() {
    }

    /** The redacted arguments of a request named {@code command} (lower case), null when there are none. */
    public static boolean[] of(String command, Arguments args) {
        return switch (command) {
            case "auth" -> allButName(args);
            case "hello" -> helloAuth(args);
            case "config" -> configSet(args);
            case "acl" -> args.count() >= 3 && args.is(1, "SETUSER") ? fromIndex(args, 2) : null;
            default -> null;
        };
    }

    private static boolean[] allButName(Arguments args) {
        return fromIndex(args, 1);
    }

    private static boolean[] fromIndex(Arguments args, int first) {
        boolean[] redacted = new boolean[args.count()];
        java.util.Arrays.fill(redacted, first, redacted.length, true);
        return redacted;
    }

    /** helloCommand's walk over its options: each AUTH with two arguments after it is redacted. */
    private static boolean[] helloAuth(Arguments args) {
        boolean[] redacted = null;
        for (int i = 2; i < args.count(); i++) {
            int more = args.count() - 1 - i;
            if (args.is(i, "AUTH") && more >= 2) {
                if (redacted == null) {
                    redacted = new boolean[args.count()];
                }
                redacted[i + 1] = true;
                redacted[i + 2] = true;
                i += 2;
            } else if (args.is(i, "SETNAME") && more >= 1) {
                i++;
            } else {
                break;
            }
        }
        return redacted;
    }

    private static boolean[] configSet(Arguments args) {
        if (args.count() < 4 || !args.is(1, "SET")) {
            return null;
        }
        boolean[] redacted = null;
        for (int i = 2; i + 1 < args.count(); i += 2) {
            if (args.is(i, "requirepass") || args.is(i, "masterauth")) {
                if (redacted == null) {
                    redacted = new boolean[args.count()];
                }
                redacted[i + 1] = true;
            }
        }
        return redacted;
    }
}
