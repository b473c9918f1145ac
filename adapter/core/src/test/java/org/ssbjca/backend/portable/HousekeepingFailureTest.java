package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.MessageTypes;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * A RECEIVE that took messages returns them even when the housekeeping pass it ran after them fails (a conversation
 * timer whose DialogTimer the database refuses): thrown after the RECEIVE's delete, a caller that caught the failure
 * and committed lost the messages unseen. The pass's failure is logged (SSBJCA0120) and tried again at a later look.
 */
class HousekeepingFailureTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aReceiveThatTookMessagesReturnsThemWhenHousekeepingFails(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords logs = LogRecords.of(Housekeeping.class)) {
            Conversation c = h.send("a");
            h.tx(s -> {
                s.beginConversationTimer(c.handle(), Duration.ofSeconds(1));
                return null;
            });
            long due = System.nanoTime() + Duration.ofMillis(1_100).toNanos();
            h.execute("ALTER TABLE ssb.message ADD CONSTRAINT refused_by_the_test CHECK (message_type_name <> '"
                    + MessageTypes.DIALOG_TIMER + "')");
            Awaitility.await("the timer due").atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() >= due);

            List<BrokerMessage> got = h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.TARGET_QUEUE)));

            assertEquals(List.of("a"), got.stream().map(BrokerMessage::bodyAsText).toList());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            List<String> failed = logs.messages(Level.WARNING, "SSBJCA0120");
            assertEquals(1, failed.size(), failed.toString());
            assertTrue(failed.get(0).toLowerCase().contains("refused_by_the_test"), failed.get(0));

            h.execute("ALTER TABLE ssb.message DROP CONSTRAINT refused_by_the_test");
            List<BrokerMessage> timer = h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.INITIATOR_QUEUE)
                    .timeout(Duration.ofSeconds(10))));
            assertEquals(1, timer.size(), "the timer fires at a later look: " + timer);
            assertTrue(timer.get(0).isDialogTimer(), timer.get(0).toString());
        }
    }

    /**
     * What housekeeping asks on the looking session's own connection (whether anything is due) is part of the
     * caller's transaction: its failure is thrown, so that the RECEIVE rolls back, not swallowed with the messages
     * returned (on PostgreSQL that transaction is aborted: the bean would get messages its commit gives back).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aFailureInTheCallersTransactionIsThrownAndTheReceiveRollsBack(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.send("a");
            // the look for due timers reads this column; the RECEIVE does not
            h.execute("ALTER TABLE ssb.conversation_endpoint RENAME COLUMN timer_expires_at TO renamed_by_the_test");
            try {
                assertThrows(org.ssbjca.api.BrokerException.class,
                        () -> h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.TARGET_QUEUE))));
                assertEquals(1, h.depth(InboundHarness.TARGET_QUEUE), "rolled back: the message is still queued");
            } finally {
                h.execute("ALTER TABLE ssb.conversation_endpoint RENAME COLUMN renamed_by_the_test TO timer_expires_at");
            }
        }
    }
}
