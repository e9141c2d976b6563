package dev.lacewing.core.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** notify-keyspace-events as Redis 7.0.15 parses it and CONFIG GET shows it (read from redis-server). */
class KeyspaceEventsTest {

    @Test
    void configGetShowsTheClassesInRedisOrder() {
        String[][] cases = {{"KEA", "AKE"}, {"A", "A"}, {"Egx", "gxE"}, {"KA", "AK"}, {"n", "n"}, {"Kn", "nK"},
            {"En", "nE"}, {"mn", "nm"}, {"AKEmnd", "AKEm"}, {"gAn", "A"}, {"g$lshzxet", "A"}, {"x$g", "g$x"},
            {"d", "d"}, {"gd", "gd"}, {"tn", "tn"}, {"Am", "Am"}, {"EK", "KE"}, {"", ""}};
        for (String[] example : cases) {
            assertEquals(example[1], KeyspaceEvents.display(KeyspaceEvents.canonical(example[0])), example[0]);
        }
    }

    @Test
    void theKeptValueLosesNoClassThatTheDisplayHides() {
        assertEquals("g$lshzxetdnKEm", KeyspaceEvents.canonical("AKEmnd"));
        int flags = KeyspaceEvents.parse(KeyspaceEvents.canonical("KEAn"));
        assertTrue((flags & KeyspaceEvents.NEW) != 0);
        assertEquals(KeyspaceEvents.parse("KEAn"), flags);
    }

    @Test
    void anUnknownCharacterIsRefusedWithRedisMessage() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> KeyspaceEvents.parse("gX"));
        assertEquals("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.", refused.getMessage());
    }

    @Test
    void eventsArePublishedOnlyWithAChannelAndAClass() {
        KeyspaceEvents events = new KeyspaceEvents(new PubSub());
        assertFalse(events.publishing());
        events.configure("A");
        assertFalse(events.publishing(), "no channel");
        events.configure("KE");
        assertFalse(events.publishing(), "no class");
        events.configure("Kg");
        assertTrue(events.publishing());
    }
}
