package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * What the console's failures view calls, through the activation's MXBean on H2 and PostgreSQL: the dead letters
 * grouped by failure, a search, a body exported, a group redelivered at a limited rate until the job is done.
 */
class FailuresViewTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void deadLettersAreGroupedSearchedExportedAndAGroupRedeliveredAtARate(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords log = LogRecords.of(RedeliveryJob.class)) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                if (refusing.get()) {
                    throw body.startsWith("order-") ? new IllegalStateException(body + " not found in 'EU'")
                            : new java.io.UncheckedIOException(new java.io.IOException("read timed out"));
                }
                done.add(body);
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            h.send("order-1", "order-2", "ping", "order-3");
            await("four dead letters").until(() -> mx.getDeadLettered() == 4);

            List<DeadLetterGroupInfo> groups = mx.listDeadLetterGroups(100);
            assertEquals(2, groups.size(), String.valueOf(groups.stream().map(DeadLetterGroupInfo::getKey).toList()));
            DeadLetterGroupInfo orders = groups.get(0);
            assertEquals("java.lang.IllegalStateException: order-<n> not found in '…'", orders.getKey());
            assertEquals(3, orders.getCount());
            assertEquals("java.lang.IllegalStateException", orders.getExceptionClass());
            assertTrue(!orders.getFirstSeen().after(orders.getLastSeen()));
            assertEquals(1, groups.get(1).getCount());

            List<DeadLetterInfo> found = mx.searchDeadLetters("order-2", 0, 10);
            assertEquals(List.of("order-2"), found.stream().map(DeadLetterInfo::getBody).toList());
            assertEquals(1, mx.searchDeadLetters("TIMED OUT", 0, 10).size(), "the error, case ignored");
            // console-failures.md: up to 200 characters
            assertEquals(0, mx.searchDeadLetters("x".repeat(200), 0, 10).size());
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> mx.searchDeadLetters("x".repeat(201), 0, 10));
            assertEquals("the text must be at most 200 characters, was 201", tooLong.getMessage());
            assertArrayEquals("order-2".getBytes(StandardCharsets.UTF_8),
                    mx.exportDeadLetterBody(found.get(0).getId()));
            assertThrows(IllegalArgumentException.class, () -> mx.exportDeadLetterBody(found.get(0).getId() + 100));
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                    () -> mx.startGroupRedelivery(orders.getKey(), 10, 0));
            assertEquals("messagesPerSecond must be over 0 and at most 1000, was 0.0", zero.getMessage());

            refusing.set(false);
            RedeliveryJobInfo started = mx.startGroupRedelivery(orders.getKey(), 100, 20);
            assertEquals(3, started.getTotal());
            await("the job done").until(() -> "DONE".equals(mx.getRedeliveryJob().getState()));
            assertEquals(3, mx.getRedeliveryJob().getRedelivered());
            // console-failures.md: SSBJCA0280 when a redelivery starts
            List<String> startedLines = log.messages(Level.INFO, "SSBJCA0280");
            assertEquals(1, startedLines.size(), startedLines.toString());
            assertTrue(startedLines.get(0).contains("redelivery of group " + orders.getKey() + " started: 3 dead"
                    + " letter(s) at 20.0 per second"), startedLines.get(0));
            assertEquals(List.of("order-1", "order-2", "order-3"), done, "the group, oldest first");
            assertEquals(List.of("ping"), mx.listDeadLetters(10).stream().map(DeadLetterInfo::getBody).toList());
        }
    }
}
