package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;

/**
 * A table activation stopped (an undeploy) while its bean runs lets that delivery finish as it would have: the bean's
 * verbs through the connection factory run on its reader's session, which the stop leaves working until the delivery
 * ends.
 */
class TableReaderStopTest {

    /**
     * The bean RECEIVEs from a queue where a message waits, after the stop reached its reader: it gets the message
     * (not an empty answer from a cancelled session), and its row and the message are taken in one commit.
     */
    @ParameterizedTest(name = "{0}, transacted {1}")
    @CsvSource({"H2, true", "H2, false", "PostgreSQL, true", "PostgreSQL, false"})
    void aBeanWhoseActivationStopsStillReceivesInItsDelivery(String kind, boolean transacted) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            h.declare();
            TableActivationTest.createMessages(h, 1);
            h.send("waiting");
            CountDownLatch inDelivery = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> received = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                inDelivery.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                    received.addAll(h.receiveThroughConnectionFactory(Duration.ofSeconds(5)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            TableActivationSpec spec = TableActivationTest.messageSpec(h);
            spec.setMaxReaders("1");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, transacted,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            TableActivation activation = TableActivationTest.activation(h, factory);
            List<TableReader> readers = readers(activation);
            CompletableFuture<Void> stopped;
            try {
                assertEquals(true, inDelivery.await(30, TimeUnit.SECONDS), "the bean called");
                stopped = CompletableFuture.runAsync(() -> h.ra.endpointDeactivation(factory, spec));
                await("the stop reached the reader").atMost(Duration.ofSeconds(30))
                        .until(() -> readers.stream().allMatch(TableReader::isStopped));
            } finally {
                release.countDown();
            }
            stopped.get(30, TimeUnit.SECONDS);

            assertEquals(List.of("waiting"), received, "the bean's RECEIVE in its delivery");
            assertEquals(1, activation.deliveredRows(), "the delivery committed");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "the message taken with the row");
            assertEquals(1, TableActivationTest.count(h,
                    "SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NOT NULL"));
            assertEquals(0, factory.pairingErrors.get(), "beforeDelivery and afterDelivery paired");
        }
    }

    private static List<TableReader> readers(TableActivation activation) {
        return activation.readers();
    }
}
