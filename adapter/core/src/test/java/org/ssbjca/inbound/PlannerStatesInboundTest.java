package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DeadLetter;
import org.ssbjca.conformance.PlannerState;
import org.ssbjca.conformance.PostgresServer;

/**
 * The adapter's readers on PostgreSQL in the states users' databases are in (never analysed, analysed empty,
 * analysed with traffic) and in the plan shape that once made one RECEIVE take a whole conversation group: with
 * {@code receiveBatchSize=1} every transaction takes one message, and a poison message is dead-lettered alone while
 * the messages after it in its conversation are delivered.
 */
class PlannerStatesInboundTest {

    /** Forced on every connection of the adapter (pgjdbc's {@code options}): a generic plan of nested loops only. */
    private static final String NESTED_LOOPS = "-c plan_cache_mode=force_generic_plan -c enable_hashjoin=off"
            + " -c enable_mergejoin=off -c enable_material=off -c enable_hashagg=off -c enable_sort=off";

    static Stream<Arguments> databases() {
        List<Arguments> out = new ArrayList<>();
        for (PlannerState state : PlannerState.values()) {
            out.add(Arguments.of(state, "as planned"));
            out.add(Arguments.of(state, "nested loops"));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databases")
    void eachTransactionTakesOneMessageAndOnlyThePoisonIsDeadLettered(PlannerState state, String shape)
            throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase(state.databaseName("inbound")
                + (shape.equals("as planned") ? "" : "_nl"));
        if (!shape.equals("as planned")) {
            String options = URLEncoder.encode(NESTED_LOOPS, StandardCharsets.UTF_8).replace("+", "%20");
            db = new DatabaseConfig(db.url() + (db.url().contains("?") ? "&" : "?") + "options=" + options,
                    db.user(), db.password());
        }
        try (InboundHarness h = new InboundHarness(db, true)) {
            try (Connection c = h.db.source().open()) {
                state.apply(h.db.broker(), c);
            }
            List<String> attempts = new ArrayList<>();
            Map<Object, List<String>> byTransaction = new LinkedHashMap<>();
            BrokerMessageListener bean = m -> {
                synchronized (attempts) {
                    attempts.add(m.bodyAsText());
                    byTransaction.computeIfAbsent(h.context.transactions().getTransactionKey(),
                            k -> new ArrayList<>()).add(m.bodyAsText());
                }
                if (m.bodyAsText().equals("poison")) {
                    throw new IllegalStateException("cannot process poison");
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setReceiveBatchSize("1");
            spec.setMaxDeliveryAttempts("3");
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);

            h.send("m0", "m1", "poison", "m3", "m4");

            EndpointActivation a = h.ra.activations().get(0);
            // settled: nothing left in the queue, nothing in delivery, the dead letter's transaction counted
            await().atMost(Duration.ofSeconds(30)).until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0
                    && a.metrics().inFlight().isEmpty() && a.metrics().deadLettered() + a.metrics().delivered() >= 5);
            synchronized (attempts) {
                assertEquals(List.of("m0", "m1", "poison", "poison", "poison", "m3", "m4"), attempts,
                        "in conversation order, the poison three times");
                assertEquals(7, byTransaction.size(), "each delivery its own transaction: " + byTransaction.values());
            }
            assertEquals(4, a.metrics().delivered(), "Delivered");
            assertEquals(3, a.metrics().rolledBack(), "RolledBack");
            List<DeadLetter> dead = InboundFeaturesTest.deadLetters(h);
            assertEquals(1, dead.size(), "only the poison is set aside");
            assertEquals("poison", dead.get(0).message().bodyAsText());
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }
}
