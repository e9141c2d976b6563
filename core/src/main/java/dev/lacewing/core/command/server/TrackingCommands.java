package dev.lacewing.core.command.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.tracking.TrackingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO: client-side caching's commands, with Redis
 * 7.0's checks in its order and its error text (networking.c's clientCommand). What tracking does is
 * {@link dev.lacewing.core.tracking.Tracking}'s.
 */
final class TrackingCommands {

    private TrackingCommands() {
    }

    /** CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX prefix ...] [OPTIN] [OPTOUT] [NOLOOP] */
    static void tracking(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        ClientConnection client = ctx.connection();
        long redirect = 0;
        boolean broadcast = false;
        boolean optIn = false;
        boolean optOut = false;
        boolean noLoop = false;
        List<byte[]> prefixes = new ArrayList<>();
        for (int i = 3; i < args.count(); i++) {
            boolean more = i + 1 < args.count();
            if (args.is(i, "redirect") && more) {
                i++;
                if (redirect != 0) {
                    reply.error("ERR A client can only redirect to a single other client");
                    return;
                }
                try {
                    redirect = Numbers.parseLong(args.array(), args.offset(i), args.length(i));
                } catch (Numbers.InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
                if (!client.server().clients().containsKey(redirect)) {
                    reply.error("ERR The client ID you want redirect to does not exist");
                    return;
                }
            } else if (args.is(i, "bcast")) {
                broadcast = true;
            } else if (args.is(i, "optin")) {
                optIn = true;
            } else if (args.is(i, "optout")) {
                optOut = true;
            } else if (args.is(i, "noloop")) {
                noLoop = true;
            } else if (args.is(i, "prefix") && more) {
                i++;
                prefixes.add(Arrays.copyOfRange(args.array(), args.offset(i), args.offset(i) + args.length(i)));
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        if (args.is(2, "on")) {
            TrackingMode current = client.tracking();
            String refused = refusal(current, broadcast, optIn, optOut, prefixes);
            if (refused != null) {
                reply.error(refused);
                return;
            }
            client.server().tracking().enable(client, redirect, broadcast, optIn, optOut, noLoop, prefixes);
        } else if (args.is(2, "off")) {
            client.server().tracking().disable(client);
        } else {
            reply.error(Errors.SYNTAX);
            return;
        }
        reply.ok();
    }

    /** Why Redis refuses to turn tracking on with these options, or null. */
    private static String refusal(TrackingMode current, boolean broadcast, boolean optIn, boolean optOut,
                                  List<byte[]> prefixes) {
        if (!broadcast && !prefixes.isEmpty()) {
            return "ERR PREFIX option requires BCAST mode to be enabled";
        }
        if (current != null && current.broadcast() != broadcast) {
            return "ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then "
                + "re-enabling it with a different mode.";
        }
        if (broadcast && (optIn || optOut)) {
            return "ERR OPTIN and OPTOUT are not compatible with BCAST";
        }
        if (optIn && optOut) {
            return "ERR You can't specify both OPTIN mode and OPTOUT mode";
        }
        if (current != null && ((optIn && current.optOut()) || (optOut && current.optIn()))) {
            return "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
                + "re-enabling it with a different mode.";
        }
        return broadcast ? overlap(current, prefixes) : null;
    }

    /** Redis's checkPrefixCollisionsOrReply: a client's prefixes may not be prefixes of one another. */
    private static String overlap(TrackingMode current, List<byte[]> prefixes) {
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] prefix = prefixes.get(i);
            if (current != null) {
                for (byte[] existing : current.prefixes()) {
                    if (overlaps(existing, prefix)) {
                        return "ERR Prefix '" + text(prefix) + "' overlaps with an existing prefix '" + text(existing)
                            + "'. Prefixes for a single client must not overlap.";
                    }
                }
            }
            for (int j = i + 1; j < prefixes.size(); j++) {
                if (overlaps(prefix, prefixes.get(j))) {
                    return "ERR Prefix '" + text(prefix) + "' overlaps with another provided prefix '"
                        + text(prefixes.get(j)) + "'. Prefixes for a single client must not overlap.";
                }
            }
        }
        return null;
    }

    private static boolean overlaps(byte[] one, byte[] other) {
        int length = Math.min(one.length, other.length);
        return Arrays.equals(one, 0, length, other, 0, length);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** CLIENT CACHING YES|NO: YES only in OPTIN mode, NO only in OPTOUT mode; for the next command. */
    static void caching(CoreContext ctx) {
        ClientConnection client = ctx.connection();
        ReplyWriter reply = ctx.reply();
        TrackingMode mode = client.tracking();
        if (mode == null) {
            reply.error("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
                + "OPTOUT mode enabled");
            return;
        }
        Arguments args = ctx.arguments();
        if (args.is(2, "yes")) {
            if (!mode.optIn()) {
                reply.error("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
                return;
            }
        } else if (args.is(2, "no")) {
            if (!mode.optOut()) {
                reply.error("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
                return;
            }
        } else {
            reply.error(Errors.SYNTAX);
            return;
        }
        client.cachingGiven(true);
        reply.ok();
    }

    /** CLIENT GETREDIR: the redirect client's id, 0 when tracking without one, -1 when not tracking. */
    static void getRedirect(CoreContext ctx) {
        TrackingMode mode = ctx.connection().tracking();
        ctx.reply().integer(mode == null ? -1 : mode.redirect());
    }

    /** CLIENT TRACKINGINFO: a map of flags (a set), redirect and prefixes, as Redis replies. */
    static void trackingInfo(CoreContext ctx) {
        ClientConnection client = ctx.connection();
        TrackingMode mode = client.tracking();
        ReplyWriter reply = ctx.reply();
        List<String> flags = new ArrayList<>();
        flags.add(mode == null ? "off" : "on");
        if (mode != null) {
            if (mode.broadcast()) {
                flags.add("bcast");
            }
            if (mode.optIn()) {
                flags.add("optin");
                if (client.cachingGiven()) {
                    flags.add("caching-yes");
                }
            }
            if (mode.optOut()) {
                flags.add("optout");
                if (client.cachingGiven()) {
                    flags.add("caching-no");
                }
            }
            if (mode.noLoop()) {
                flags.add("noloop");
            }
            if (client.trackingRedirectBroken()) {
                flags.add("broken_redirect");
            }
        }
        reply.map(3);
        reply.bulk("flags");
        reply.set(flags.size());
        for (String flag : flags) {
            reply.bulk(flag);
        }
        reply.bulk("redirect");
        reply.integer(mode == null ? -1 : mode.redirect());
        reply.bulk("prefixes");
        List<byte[]> prefixes = mode == null ? List.of() : mode.prefixes();
        reply.array(prefixes.size());
        for (byte[] prefix : prefixes) {
            reply.bulk(prefix);
        }
    }
}
