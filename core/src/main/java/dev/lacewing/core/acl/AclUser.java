package dev.lacewing.core.acl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * An ACL user: a name and its rules. The rules are one immutable {@link Rules} value that ACL
 * SETUSER replaces whole, so a connection that holds the user sees a change at its next command,
 * as Redis's connections do (they point at the user Redis edits in place).
 *
 * <p>Thread rule: the rules are replaced under the {@link Acl} lock and read from any thread.
 */
public final class AclUser {

    /** Redis's USER_FLAG_SANITIZE_PAYLOAD(_SKIP): neither, skip, or sanitize. */
    static final int SANITIZE_UNSET = 0;
    static final int SANITIZE_SKIP = 1;
    static final int SANITIZE = 2;

    /**
     * What a user may do.
     *
     * @param passwords SHA-256 hex digests, in the order they were added
     * @param selectors the root selector first
     * @param unrestricted whether every command, key and channel is allowed: the check is then skipped
     */
    public record Rules(boolean enabled, boolean nopass, int sanitize, List<String> passwords,
                        List<AclSelector> selectors, boolean unrestricted) {

        AclSelector root() {
            return selectors.get(0);
        }
    }

    private final String name;
    private volatile Rules rules;

    AclUser(String name, Rules rules) {
        this.name = name;
        this.rules = rules;
    }

    public String name() {
        return name;
    }

    public Rules rules() {
        return rules;
    }

    void rules(Rules newRules) {
        this.rules = newRules;
    }

    /** Whether {@code password} opens this user (Redis's ACLCheckUserCredentials, past the name). */
    boolean accepts(String password) {
        Rules current = rules;
        if (!current.enabled()) {
            return false;
        }
        if (current.nopass()) {
            return true;
        }
        byte[] hashed = hash(password).getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String stored : current.passwords()) {
            match |= MessageDigest.isEqual(hashed, stored.getBytes(StandardCharsets.US_ASCII));
        }
        return match;
    }

    static String hash(String password) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The rules of a user being built or changed, Redis's temporary user of ACL SETUSER: every
     * rule applies to the draft and the user gets it only when all of them did.
     *
     * <p>Thread rule: one thread, under the {@link Acl} lock.
     */
    static final class Draft {

        boolean enabled;
        boolean nopass;
        int sanitize;
        final List<String> passwords;
        final List<AclSelector> selectors;
        private final boolean allChannelsByDefault;

        /** A new user's rules (Redis's ACLCreateUser): off, no passwords, no commands, no keys. */
        Draft(boolean allChannelsByDefault) {
            this.allChannelsByDefault = allChannelsByDefault;
            this.passwords = new ArrayList<>();
            this.selectors = new ArrayList<>();
            selectors.add(new AclSelector(true, allChannelsByDefault));
        }

        Draft(Rules from, boolean allChannelsByDefault) {
            this.allChannelsByDefault = allChannelsByDefault;
            this.enabled = from.enabled();
            this.nopass = from.nopass();
            this.sanitize = from.sanitize();
            this.passwords = new ArrayList<>(from.passwords());
            this.selectors = new ArrayList<>();
            from.selectors().forEach(selector -> selectors.add(selector.copy()));
        }

        Rules build() {
            List<AclSelector> published = List.copyOf(selectors);
            AclSelector root = published.get(0);
            boolean unrestricted = root.allCommands() && root.allKeys() && root.allChannels();
            return new Rules(enabled, nopass, sanitize, List.copyOf(passwords), published, unrestricted);
        }

        /** Applies one rule (Redis's ACLSetUser); a selector "(...)" holds rules split as arguments. */
        void apply(String op, AclCommandIndex index) {
            if (op.isEmpty()) {
                return;
            }
            if (op.equalsIgnoreCase("on")) {
                enabled = true;
            } else if (op.equalsIgnoreCase("off")) {
                enabled = false;
            } else if (op.equalsIgnoreCase("skip-sanitize-payload")) {
                sanitize = SANITIZE_SKIP;
            } else if (op.equalsIgnoreCase("sanitize-payload")) {
                sanitize = SANITIZE;
            } else if (op.equalsIgnoreCase("nopass")) {
                nopass = true;
                passwords.clear();
            } else if (op.equalsIgnoreCase("resetpass")) {
                nopass = false;
                passwords.clear();
            } else if (op.charAt(0) == '>' || op.charAt(0) == '#') {
                String hashed = op.charAt(0) == '>' ? hash(op.substring(1)) : checkedHash(op.substring(1));
                if (!passwords.contains(hashed)) {
                    passwords.add(hashed);
                }
                nopass = false;
            } else if (op.charAt(0) == '<' || op.charAt(0) == '!') {
                String hashed = op.charAt(0) == '<' ? hash(op.substring(1)) : checkedHash(op.substring(1));
                if (!passwords.remove(hashed)) {
                    throw new AclRuleException(AclRuleException.NO_SUCH_PASSWORD);
                }
            } else if (op.charAt(0) == '(' && op.charAt(op.length() - 1) == ')') {
                AclSelector selector = new AclSelector(false, allChannelsByDefault);
                for (String inner : SplitArgs.split(op.substring(1, op.length() - 1))) {
                    selector.apply(inner, index);
                }
                selectors.add(selector);
            } else if (op.equalsIgnoreCase("clearselectors")) {
                selectors.subList(1, selectors.size()).clear();
            } else if (op.equalsIgnoreCase("reset")) {
                apply("resetpass", index);
                apply("resetkeys", index);
                apply("resetchannels", index);
                if (allChannelsByDefault) {
                    apply("allchannels", index);
                }
                apply("off", index);
                apply("sanitize-payload", index);
                apply("clearselectors", index);
                apply("-@all", index);
            } else {
                selectors.get(0).apply(op, index);
            }
        }

        private static String checkedHash(String hash) {
            if (hash.length() != 64) {
                throw new AclRuleException(AclRuleException.BAD_HASH);
            }
            for (int i = 0; i < hash.length(); i++) {
                char c = hash.charAt(i);
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                    throw new AclRuleException(AclRuleException.BAD_HASH);
                }
            }
            return hash;
        }
    }
}
