package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.tiers.Slow;

/**
 * The redelivery delay (issue 12): after a failed delivery a conversation group waits {@code redeliveryDelay}, then
 * that times {@code redeliveryMultiplier} after each further failure, while the other groups flow, even with a single
 * reader; the held group's messages keep their order. Measured on H2 and PostgreSQL.
 */
class RedeliveryDelayTest {

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");
    /**
     * Long enough that the work around a wait (the rollback, writing the hold, the next RECEIVE; a second or more
     * each on a slow machine) stays well inside one DELAY, so that a wait of the wrong power is told apart.
     */
    private static final long DELAY = 3_000;
    /** Groups delivered while the failed one is held: each must fit in the first DELAY even on a slow machine. */
    private static final int OTHERS = 5;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    @Slow
    void aFailedGroupWaitsTheDelayWhileOthersAreDelivered(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> delivered = new CopyOnWriteArrayList<>();
            Map<String, Long> at = new ConcurrentHashMap<>();
            List<Long> failedAt = new CopyOnWriteArrayList<>();
            long start = System.nanoTime();
            BrokerMessageListener bean = m -> {
                long now = (System.nanoTime() - start) / 1_000_000;
                if (m.bodyAsText().equals("fails twice") && failedAt.size() < 2) {
                    failedAt.add(now);
                    throw new IllegalStateException("not yet");
                }
                at.put(m.bodyAsText(), now);
                delivered.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setMaxDeliveryAttempts("3");
            spec.setRedeliveryDelay(Long.toString(DELAY));
            spec.setRedeliveryMultiplier("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            h.send("fails twice", "after it, same conversation");
            for (int i = 0; i < OTHERS; i++) {
                h.send("other " + i);
            }

            Awaitility.await("all delivered").atMost(Duration.ofSeconds(90))
                    .until(() -> delivered.size() == OTHERS + 2);
            long first = failedAt.get(0);
            long second = failedAt.get(1);
            long success = at.get("fails twice");
            FIGURES.info(String.format("%s: redeliveryDelay %d ms, multiplier 2: failures at %d and %d ms, success"
                    + " at %d ms (waits %d and %d ms); the %d other groups delivered by %d ms", backend, DELAY, first,
                    second, success, second - first, success - second, OTHERS,
                    at.entrySet().stream().filter(e -> e.getKey().startsWith("other")).mapToLong(Map.Entry::getValue)
                            .max().orElseThrow()));
            // the n-th failure's wait is DELAY x 2^(n-1): at least that, and short of the next power's (the margin
            // is a reader's pick-up, milliseconds: any slip of the exponent is a whole DELAY or more)
            assertTrue(second - first >= DELAY && second - first < 2 * DELAY, "first wait " + (second - first)
                    + " ms");
            assertTrue(success - second >= 2 * DELAY && success - second < 4 * DELAY, "second wait "
                    + (success - second) + " ms");
            for (int i = 0; i < OTHERS; i++) {
                assertTrue(at.get("other " + i) < second, "other " + i + " delivered while the group was held");
            }
            assertTrue(at.get("after it, same conversation") >= success, "order within the conversation");
            assertEquals(List.of("fails twice", "after it, same conversation"), delivered.stream()
                    .filter(b -> !b.startsWith("other")).toList());
        }
    }

    /**
     * docs/guide/inbound-mdbs.md: held after each failed delivery "until maxDeliveryAttempts is reached and the message
     * is dead-lettered at once".
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theLastFailureIsDeadLetteredWithoutAnotherWait(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<Long> failedAt = new CopyOnWriteArrayList<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("poison")) {
                    failedAt.add(System.nanoTime());
                    throw new IllegalStateException("never");
                }
                delivered.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setMaxDeliveryAttempts("2");
            spec.setRedeliveryDelay(Long.toString(DELAY));
            spec.setRedeliveryMultiplier("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison", "after it, same conversation");
            Awaitility.await("dead-lettered").atMost(Duration.ofSeconds(90))
                    .until(() -> a.metrics().deadLettered() == 1 && delivered.size() == 1);
            long afterLast = (System.nanoTime() - failedAt.get(1)) / 1_000_000;

            assertEquals(2, failedAt.size(), "two attempts, then the dead letter");
            assertTrue((failedAt.get(1) - failedAt.get(0)) / 1_000_000 >= DELAY, "held after the first failure");
            // a third wait would have been 2 x DELAY
            assertTrue(afterLast < 2 * DELAY, "dead-lettered and the next message delivered " + afterLast
                    + " ms after the last failure");
            assertEquals(List.of("after it, same conversation"), delivered);
            assertEquals(0, holds(h), "the dead letter ended its group's hold (none is left behind)");
        }
    }

    /**
     * A batch that dead-letters one message and hands another of its group to the bean, which fails: the failure's
     * hold is written on the bookkeeping connection while the delivery's transaction is still open, so that
     * transaction must not hold the group's hold row (a reader waited on its own transaction: for ever on
     * PostgreSQL). The dead letter ends the hold only once its delivery succeeds. "poison" fails twice alone, then
     * twice with "second" behind it (never reached: the bean stops at "poison", so "second" counts no failure), so
     * the next RECEIVE dead-letters "poison" (4 failures) and gives "second" to the bean, which fails its first
     * attempt.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDeadLetterBesideAFailingMessageOfItsGroupHoldsNoLockTheFailureNeeds(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                seen.add(body + " " + m.deliveryAttempt());
                if (body.equals("poison") || m.deliveryAttempt() == 1 && body.equals("second")) {
                    throw new IllegalStateException("fails: " + body);
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            spec.setReceiveBatchSize("2");
            spec.setMaxDeliveryAttempts("4");
            spec.setRedeliveryDelay("1000");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            Conversation c = h.send("poison");
            Awaitility.await("two failures alone").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().rolledBack() == 2);
            h.tx(s -> {
                s.send(c.handle(), InboundHarness.REQUEST, "second".getBytes(StandardCharsets.UTF_8));
                return null;
            });
            Awaitility.await("dead-lettered, and the second delivered after its own failure")
                    .atMost(Duration.ofSeconds(60)).until(() -> a.metrics().deadLettered() == 1
                            && a.metrics().delivered() == 1);

            assertEquals(List.of("poison 1", "poison 2", "poison 3", "poison 4", "second 1", "second 2"), seen);
            assertEquals(0, holds(h), "no hold left once the group's messages are done");
        }
    }

    /** @return rows in the holds table */
    private static long holds(InboundHarness h) {
        return h.tx(s -> {
            try (Statement st = s.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM ssb.conversation_hold")) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void theDelayGrowsByTheMultiplierUpToTheMaximum() throws Exception {
        RedeliveryPolicy p = new RedeliveryPolicy(1_000, 3, 5_000);
        assertEquals(Duration.ofMillis(1_000), p.delayAfter(1));
        assertEquals(Duration.ofMillis(3_000), p.delayAfter(2));
        assertEquals(Duration.ofMillis(5_000), p.delayAfter(3), "capped");
        ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
        spec.setQueue("Q");
        spec.setRedeliveryDelay("2000");
        assertEquals(new RedeliveryPolicy(2_000, 1.0, 20_000), new ActivationValues(spec).redeliveryPolicy(),
                "by default no growth, and at most ten times the delay");
    }

    @Test
    void badRedeliveryValuesFailTheDeploymentNamingTheProperty() {
        for (String[] bad : new String[][] {{"redeliveryDelay", "5s"}, {"redeliveryDelay", "-1"},
            {"redeliveryMultiplier", "0.5"}, {"redeliveryMultiplier", "NaN"}, {"maxRedeliveryDelay", "100"}}) {
            ServiceBrokerActivationSpec spec = new ServiceBrokerActivationSpec();
            spec.setQueue("Q");
            spec.setRedeliveryDelay("1000");
            switch (bad[0]) {
                case "redeliveryDelay" -> spec.setRedeliveryDelay(bad[1]);
                case "redeliveryMultiplier" -> spec.setRedeliveryMultiplier(bad[1]);
                default -> spec.setMaxRedeliveryDelay(bad[1]);
            }
            InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate, bad[0]);
            assertTrue(e.getMessage().contains("'" + bad[0] + "'"), e.getMessage());
        }
    }
}
