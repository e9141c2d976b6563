package dev.lacewing.it.reference;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import dev.lacewing.it.server.TypedValueFixture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Runs a {@link Script}'s commands against redis-server and a Lacewing server side by side, and
 * lists the replies that differ once both are normalized by {@link DeliberateDifferences}: the
 * loop every family's reference test shares. A {@link Script.Typed} step stores a value of another
 * type on both (a list on Redis, the fixture's value on Lacewing).
 */
final class ScriptComparison {

    private static final int SHOWN_CHARACTERS = 600;

    private ScriptComparison() {
    }

    /** Each named script ({@code {name, text}}) on every target: a reference test's cases. */
    static Stream<Arguments> onEveryTarget(List<String[]> scripts) {
        return Servers.all().flatMap(target -> scripts.stream().map(s -> Arguments.of(target, s[0], s[1])));
    }

    /** Runs the script on the reference redis-server and on the target; fails with the report of any difference. */
    static void assertSameReplies(Script script, int referencePort, Target target) {
        try (RespClient reference = RespClient.connect(referencePort);
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<String> mismatches = mismatches(script, reference, lacewing);
            assertTrue(mismatches.isEmpty(), () -> report(mismatches));
        }
    }

    /** One line pair per differing reply, empty when every reply agrees. */
    static List<String> mismatches(Script script, RespClient reference, RespClient lacewing) {
        List<String> mismatches = new ArrayList<>();
        for (Script.Step step : script.steps()) {
            if (step instanceof Script.Typed typed) {
                reference.callBytes(List.of(bytes("RPUSH"), typed.key(), bytes("x")));
                lacewing.callBytes(List.of(bytes(TypedValueFixture.COMMAND), typed.key()));
            } else if (step instanceof Script.Command command) {
                byte[] request = RespClient.encode(command.arguments());
                reference.send(request);
                lacewing.send(request);
                String expected = RespClient.text(reference.readReply());
                String actual;
                try {
                    actual = RespClient.text(lacewing.readReply());
                } catch (java.io.UncheckedIOException e) {
                    throw new AssertionError("no reply to: " + command.words(), e);
                }
                String words = command.words();
                if (!DeliberateDifferences.normalize(words, expected)
                        .equals(DeliberateDifferences.normalize(words, actual))) {
                    mismatches.add("reply to: " + words + "\n  redis:    " + shown(expected)
                        + "\n  lacewing: " + shown(actual));
                }
            } else {
                throw new IllegalArgumentException("a comparison script holds commands and typed values only: " + step);
            }
        }
        return mismatches;
    }

    /** A failure message listing the mismatches. */
    static String report(List<String> mismatches) {
        return mismatches.size() + " replies differ from Redis's:\n" + String.join("\n", mismatches);
    }

    private static String shown(String reply) {
        String escaped = RespClient.escape(reply.getBytes(StandardCharsets.ISO_8859_1));
        return escaped.length() <= SHOWN_CHARACTERS ? escaped : escaped.substring(0, SHOWN_CHARACTERS) + "...";
    }
}
