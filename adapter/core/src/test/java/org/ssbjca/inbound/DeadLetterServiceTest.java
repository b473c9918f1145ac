package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.management.ActivationMXBean;
import org.ssbjca.management.ObjectNames;

/**
 * {@code deadLetterService} (issue 12): a dead letter also goes to a service of the application's, in the
 * transaction that moves it to the dead-letter table, with its message type and body; when the broker refuses the
 * SEND at once (here: no such service) it stays in the table only, with a WARN, and the readers go on; so it does when
 * the database refuses the copy's rows (on PostgreSQL a failed statement dooms its transaction unless it is undone to a
 * savepoint).
 */
class DeadLetterServiceTest {

    private static final String DEAD_LETTERS = "DeadLetters";
    private static final String DEAD_LETTER_QUEUE = "DeadLetterQueue";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDeadLetterIsAlsoSentToTheDeadLetterService(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            declareDeadLetterService(h);
            List<String> delivered = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            spec.setDeadLetterService(DEAD_LETTERS);
            h.activate(BrokerMessageListener.class, poisonFails(delivered), true, spec);

            h.send("poison");
            h.send("fine");

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> InboundFeaturesTest.deadLetters(h).size() == 1
                    && h.depth(DEAD_LETTER_QUEUE) == 2 && delivered.contains("fine"));
            List<BrokerMessage> got = h.tx(s -> s.receive(ReceiveRequest.from(DEAD_LETTER_QUEUE).top(10)));
            assertEquals(2, got.size(), "the copy, then the EndDialog of the adapter's side");
            assertTrue(got.get(1).isEndDialog());
            BrokerMessage copy = got.get(0);
            assertEquals("poison", copy.bodyAsText());
            assertEquals(InboundHarness.REQUEST, copy.messageTypeName());
            assertEquals(DEAD_LETTERS, copy.serviceName());
            assertEquals(InboundHarness.CONTRACT, copy.serviceContractName());
            DeadLetter letter = InboundFeaturesTest.deadLetters(h).get(0);
            assertEquals("poison", letter.message().bodyAsText(), "still in the dead-letter table");
            assertEquals(copy.conversationId(), letter.copyConversationId(),
                    "the copy joins its failure data by its conversation id");
            ActivationMXBean mx = javax.management.JMX.newMXBeanProxy(
                    java.lang.management.ManagementFactory.getPlatformMBeanServer(),
                    ObjectNames.activation(h.ra.activations().get(0).name()), ActivationMXBean.class, true);
            assertEquals(copy.conversationId().toString(), mx.listDeadLetters(10).get(0).getCopyConversationId(),
                    "in the MXBean too");
            assertEquals("2 java.lang.IllegalStateException: cannot process poison", joinedAsTheGuideSays(h, copy));
            assertEquals(2, letter.attempts());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRefusedSendLeavesTheDeadLetterInTheTableOnly(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords log = LogRecords.of(BatchSorter.class)) {
            List<String> delivered = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            spec.setDeadLetterService("NoSuchService");
            h.activate(BrokerMessageListener.class, poisonFails(delivered), true, spec);

            h.send("poison");
            h.send("fine");

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> InboundFeaturesTest.deadLetters(h).size() == 1
                    && delivered.contains("fine") && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0046");
            assertEquals(1, warnings.size(), String.valueOf(warnings));
            assertTrue(warnings.get(0).contains("NoSuchService"), warnings.get(0));
            assertNull(InboundFeaturesTest.deadLetters(h).get(0).copyConversationId(), "no copy was sent");
            BrokerMessage letter = InboundFeaturesTest.deadLetters(h).get(0).message();
            // as SSBJCA0042 does: the conversation id, and the handle on this side
            String names = "message " + letter.messageSequenceNumber() + " of conversation " + letter.conversationId()
                    + " (handle " + letter.conversationHandle() + " here";
            assertTrue(warnings.get(0).contains(names), names + " in " + warnings.get(0));
        }
    }

    /**
     * The copies' SENDs fail in the database (the dead-letter service's queue refuses rows: a trigger on PostgreSQL,
     * a CHECK constraint on H2). Each letter is in the table all the same, once, the poison is not delivered again,
     * the other messages flow, and nothing of the copies is left: no message, no dialog. Two poison messages: on
     * PostgreSQL the second's BEGIN DIALOG, its declared objects known by then, is held back and written with its
     * SEND in one statement.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aCopyTheDatabaseRefusesLeavesTheDeadLetterInTheTableOnly(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords log = LogRecords.of(BatchSorter.class)) {
            declareDeadLetterService(h);
            refuseRowsOf(h, backend, DEAD_LETTER_QUEUE);
            List<String> calls = new CopyOnWriteArrayList<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener poisonFails = poisonFails(delivered);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            spec.setDeadLetterService(DEAD_LETTERS);
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                calls.add(m.bodyAsText());
                poisonFails.onMessage(m);
            }, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison");
            h.send("poison");
            h.send("fine");

            Awaitility.await("dead-lettered").atMost(Duration.ofSeconds(30)).until(() -> a.metrics().deadLettered() == 2
                    && delivered.contains("fine") && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals(List.of("poison", "poison"), InboundFeaturesTest.deadLetters(h).stream()
                    .map(d -> d.message().bodyAsText()).toList(), "in the table, once each");
            assertEquals(4, calls.stream().filter("poison"::equals).count(),
                    "maxDeliveryAttempts deliveries each, then no more: " + calls);
            assertEquals(List.of("fine"), delivered);
            assertEquals(0, h.depth(DEAD_LETTER_QUEUE), "no copy");
            assertTrue(InboundFeaturesTest.deadLetters(h).stream().allMatch(d -> d.copyConversationId() == null),
                    "no copy's conversation recorded");
            assertEquals(0, count(h, "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE service_name = '"
                    + DEAD_LETTERS + "' OR far_service = '" + DEAD_LETTERS + "'"), "no dialog of the copies left");
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0046");
            assertEquals(2, warnings.size(), String.valueOf(warnings));
            assertTrue(warnings.get(0).contains(DEAD_LETTERS), warnings.get(0));
        }
    }

    /** docs/guide/inbound-mdbs.md: "Priority requests without a priority (SSBJCA0045) go to the table only." */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aRejectedPriorityRequestGoesToTheTableOnly(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            declareDeadLetterService(h);
            List<String> delivered = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            spec.setDeadLetterService(DEAD_LETTERS);
            h.activate(BrokerMessageListener.class, poisonFails(delivered), true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.SET_PRIORITY, "<priority>high</priority>".getBytes(
                        StandardCharsets.UTF_8));
                s.send(c.handle(), InboundHarness.REQUEST, "fine".getBytes(StandardCharsets.UTF_8));
                return c;
            });

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.metrics().priorityRequestsRejected() == 1
                    && delivered.contains("fine") && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals("<priority>high</priority>", InboundFeaturesTest.deadLetters(h).get(0).message().bodyAsText());
            assertEquals(0, h.depth(DEAD_LETTER_QUEUE), "no copy to the dead-letter service");
        }
    }

    /** The application's dead-letter service, on a queue of its own, with the contract of the bean's queue. */
    private static void declareDeadLetterService(InboundHarness h) {
        h.admin(a -> {
            a.createQueue(DEAD_LETTER_QUEUE);
            a.createService(DEAD_LETTERS, DEAD_LETTER_QUEUE, InboundHarness.CONTRACT);
        });
    }

    /** Makes the database refuse every row for a queue's messages, as a full or broken table would. */
    private static void refuseRowsOf(InboundHarness h, String backend, String queue) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
            if (backend.equals("PostgreSQL")) {
                s.execute("CREATE FUNCTION refused_by_the_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " RAISE EXCEPTION 'refused by the test'; END $$");
                s.execute("CREATE TRIGGER refused_by_the_test BEFORE INSERT ON ssb.message FOR EACH ROW"
                        + " WHEN (NEW.queue_name = '" + queue + "') EXECUTE FUNCTION refused_by_the_test()");
            } else {
                s.execute("ALTER TABLE ssb.message ADD CONSTRAINT refused_by_the_test CHECK (queue_name <> '"
                        + queue + "')");
            }
            c.commit();
        }
    }

    /**
     * Runs the query of docs/guide/failure-policy.md that joins a copy to its failure data, as written there (the
     * T-SQL variable bound as a parameter).
     *
     * @return the attempts and the last error of the one row found
     */
    private static String joinedAsTheGuideSays(InboundHarness h, BrokerMessage copy) throws Exception {
        String section = org.ssbjca.docs.Docs.section("docs/guide/failure-policy.md", "## Failure policy");
        int start = section.indexOf("```sql\n") + 7;
        String query = section.substring(start, section.indexOf("```", start)).lines()
                .filter(l -> !l.startsWith("--")).collect(java.util.stream.Collectors.joining(" "))
                .replace("@conversation_id", "?").replace(";", "");
        try (Connection c = h.db.source().open(); java.sql.PreparedStatement s = c.prepareStatement(query)) {
            s.setObject(1, copy.conversationId());
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next(), query);
                String found = rs.getInt("attempts") + " " + rs.getString("last_error");
                assertTrue(!rs.next(), "one row");
                c.commit();
                return found;
            }
        }
    }

    private static long count(InboundHarness h, String sql) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            long n = rs.getLong(1);
            c.commit();
            return n;
        }
    }

    private static BrokerMessageListener poisonFails(List<String> delivered) {
        return m -> {
            if (m.bodyAsText().equals("poison")) {
                throw new IllegalStateException("cannot process poison");
            }
            delivered.add(m.bodyAsText());
        };
    }
}
