package dev.lacewing.it.reference.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Focused runs ({@code -Ddifferential.families}) that name a family which only wraps others. */
class FamiliesTest {

    @Test
    void transactionsAloneQueueStringCalls() {
        Sequence sequence = Sequence.generate(1, 200, List.of(new TransactionCommandsGenerator()));

        assertEquals(200, sequence.calls().size());
        assertTrue(sequence.calls().stream().anyMatch(call -> call.name().equals("MULTI")));
        assertTrue(sequence.calls().stream().anyMatch(call -> new StringCommandsGenerator().commands()
            .contains(call.name())));
    }

    @Test
    void pubSubWithNoOtherFamilyStillWrites() {
        List<PubSubScenario.Step> steps = new PubSubScenario(List.of()).generate(1, 200);

        assertEquals(200, steps.size());
    }
}
