package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The backoff of a scheduled send kept after failures that pass, when it warns, and how its conversation waits. */
class SendRetriesTest {

    private static final Instant NOW = Instant.parse("2030-01-01T09:00:00Z");

    @Test
    void theBackoffDoublesUpToItsMaximumAndWarnsAfterRepeatedFailures() {
        SendRetries retries = new SendRetries();
        UUID id = UUID.randomUUID();
        UUID conversation = UUID.randomUUID();
        SendRetries.Retry first = retries.failed(id, conversation, NOW);
        assertEquals(1, first.failures());
        assertEquals(NOW.plus(SendRetries.FIRST_BACKOFF), first.at());
        assertEquals(NOW.plus(SendRetries.FIRST_BACKOFF.multipliedBy(2)), retries.failed(id, conversation, NOW).at());
        SendRetries.Retry last = first;
        for (int n = 3; n <= 40; n++) {
            last = retries.failed(id, conversation, NOW);
            assertEquals(n >= SendRetries.WARN_FROM, last.warn(), "failure " + n);
        }
        assertFalse(first.warn());
        assertEquals(NOW.plus(SendRetries.MAX_BACKOFF), last.at());
    }

    @Test
    void aSendSentOrDroppedStartsCountingAfresh() {
        SendRetries retries = new SendRetries();
        UUID id = UUID.randomUUID();
        retries.failed(id, UUID.randomUUID(), NOW);
        retries.failed(id, UUID.randomUUID(), NOW);
        retries.done(id);
        assertEquals(1, retries.failed(id, UUID.randomUUID(), NOW).failures());
    }

    @Test
    void theSendsOfItsConversationArePutBehindItInTurnUntilItIsTriedAgain() {
        SendRetries retries = new SendRetries();
        UUID conversation = UUID.randomUUID();
        SendRetries.Retry retry = retries.failed(UUID.randomUUID(), conversation, NOW);
        Instant second = retries.behind(conversation, NOW);
        assertEquals(retry.at().plus(1, ChronoUnit.MICROS), second);
        assertEquals(second.plus(1, ChronoUnit.MICROS), retries.behind(conversation, NOW), "each after the last");
        assertNull(retries.behind(UUID.randomUUID(), NOW), "another conversation is not held back");
        assertNull(retries.behind(conversation, retry.at()), "not once the kept send is tried again");
        assertNull(retries.behind(conversation, NOW), "nor afterwards");
    }
}
