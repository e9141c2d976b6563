package dev.lacewing.core.config;

import java.util.Locale;

/**
 * Who may take a protected action: the value of enable-debug-command, enable-module-command and
 * enable-protected-configs (Redis's protected_action_enum and allowProtectedAction).
 */
public enum ProtectedAccess {
    /** Nobody. */
    NO,
    /** Every client. */
    YES,
    /** Clients connected from 127.0.0.1 or ::1. */
    LOCAL;

    /** The value named, in any case; IllegalArgumentException with Redis's wording otherwise. */
    public static ProtectedAccess named(String name) {
        for (ProtectedAccess access : values()) {
            if (access.redisName().equalsIgnoreCase(name)) {
                return access;
            }
        }
        throw new IllegalArgumentException("argument(s) must be one of the following: no, yes, local");
    }

    /** The name CONFIG GET replies. */
    public String redisName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a client, local or not (Redis's islocalClient), may take the action. */
    public boolean allows(boolean localClient) {
        return this == YES || (this == LOCAL && localClient);
    }
}
