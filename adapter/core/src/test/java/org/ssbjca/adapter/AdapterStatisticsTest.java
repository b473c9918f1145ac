package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import org.awaitility.Awaitility;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.management.ObjectNames;
import org.ssbjca.management.ResourceAdapterMXBean;

/**
 * The adapter's IronJacamar statistics (what WildFly shows as the resource adapter's {@code statistics=extended} and
 * exports at {@code /metrics}) are the activations' counters: the same numbers JMX shows, of the types WildFly
 * exports as metrics.
 */
class AdapterStatisticsTest {

    @Test
    void theStatisticsAreTheActivationsCounters() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            StatisticsPlugin stats = h.ra.getStatistics();
            assertEquals(0, stats.getValue("Activations"));
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("poison")) {
                    throw new IllegalStateException("poison");
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            h.send("a");
            h.send("b");
            h.send("poison");
            EndpointActivation a = h.ra.activations().get(0);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().delivered() == 2 && a.metrics().deadLettered() == 1);

            assertEquals(List.of("Activations", "Readers", "WaitingReaders", "ActiveReaders", "ParkedReaders",
                    "ReconnectingReaders", "Reconnects",
                    "Received", "Delivered", "Committed", "RolledBack", "Redelivered", "DeadLettered", "ErrorsReceived",
                    "PriorityRequestsRejected", "DeliveriesTimed", "DeliveryMillisTotal", "QueueDepth",
                    "OldestMessageAgeSeconds", "PendingConversationGroups", "DeadLetters", "ConversationEndpoints",
                    "StaleConversationEndpoints", "TransmissionQueueDepth"), List.copyOf(stats.getNames()));
            for (String name : stats.getNames()) {
                Class<?> type = stats.getType(name);
                assertEquals(true, type == int.class || type == long.class, name + " is " + type);
                assertEquals(type == int.class ? Integer.class : Long.class, stats.getValue(name).getClass(), name);
            }
            assertEquals(1, stats.getValue("Activations"));
            assertEquals(2, stats.getValue("Readers"));
            assertEquals(0, stats.getValue("ActiveReaders"), "nothing in flight");
            assertEquals(a.metrics().delivered(), stats.getValue("Delivered"));
            assertEquals(a.metrics().received(), stats.getValue("Received"));
            assertEquals(a.metrics().rolledBack(), stats.getValue("RolledBack"));
            assertEquals(2L, stats.getValue("RolledBack"));
            assertEquals(1L, stats.getValue("DeadLettered"));
            assertEquals(a.metrics().redelivered(), stats.getValue("Redelivered"));
            assertEquals(a.metrics().timedDeliveries(), stats.getValue("DeliveriesTimed"));
            assertEquals(stats.getValue("Committed"), stats.getValue("DeliveriesTimed"),
                    "committed deliveries are timed");
            assertEquals(0, stats.getValue("ReconnectingReaders"));
            Awaitility.await("the dead letter counted").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> Long.valueOf(1).equals(stats.getValue("DeadLetters")));
        }
    }

    /**
     * {@code ActiveReaders} (at {@code /metrics}: {@code active_readers}) is what the activation MBean's attribute of
     * that name and the {@code ssb_readers_active} meter show: readers delivering now; {@code Readers}
     * ({@code readers}) the readers running, busy or not.
     */
    @Test
    void activeReadersAreTheReadersDeliveringNowAsInJmx() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            StatisticsPlugin stats = h.ra.getStatistics();
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            BrokerMessageListener bean = m -> {
                calls.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("3");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            try {
                EndpointActivation a = h.ra.activations().get(0);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.readerCount() == 3);
                assertEquals(3, stats.getValue("Readers"));
                assertEquals(0, stats.getValue("ActiveReaders"), "nothing to deliver");
                h.send("held");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() == 1);
                assertEquals(1, stats.getValue("ActiveReaders"), "one reader in the bean");
                assertEquals(3, stats.getValue("Readers"));
            } finally {
                release.countDown();
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(0)
                    .equals(stats.getValue("ActiveReaders")));
        }
    }

    /**
     * The statistics are sums over the queue activations only, as docs/reference/metrics.md says: a running table
     * activation (its 3 readers, the row its bean holds) is in none of them, nor in the adapter MBean's {@code
     * Activations}; it has its
     * {@code TableActivation} MBean and {@code ssb_table_*} meters.
     */
    @Test
    void aTableActivationIsInNoneOfTheStatistics() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            StatisticsPlugin stats = h.ra.getStatistics();
            ServiceBrokerActivationSpec queueSpec = h.spec();
            queueSpec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, queueSpec);
            EndpointActivation queue = h.ra.activations().get(0);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> queue.readerCount() == 2);
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            TableRowListener bean = row -> {
                holding.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            TableActivationSpec tableSpec = workTable(h);
            tableSpec.setMaxReaders("3");
            FakeEndpointFactory table = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(table, tableSpec);
            try {
                assertTrue(holding.await(30, TimeUnit.SECONDS), "the table bean holds its row");
                assertEquals(1, stats.getValue("Activations"), "the queue's bean only");
                assertEquals(2, stats.getValue("Readers"), "the queue's readers, not the table's 3");
                assertEquals(0, stats.getValue("ActiveReaders"), "the table bean's delivery is not counted");
                ResourceAdapterMXBean adapter = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                        ObjectNames.resourceAdapter(), ResourceAdapterMXBean.class);
                assertEquals(List.of(queue.name()), adapter.getActivations());
            } finally {
                release.countDown();
                h.ra.endpointDeactivation(table, tableSpec);
            }
        }
    }

    /** A table Work (ID, Payload) with one row, and a table activation's properties for it. */
    private static TableActivationSpec workTable(InboundHarness h) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE Work (ID INT PRIMARY KEY, Payload VARCHAR(100) NOT NULL)");
            s.execute("INSERT INTO Work VALUES (1, 'held')");
            c.commit();
        }
        TableActivationSpec spec = new TableActivationSpec();
        spec.setResourceAdapter(h.ra);
        spec.setTable("Work");
        spec.setKeyColumn("ID");
        spec.setPayloadColumn("Payload");
        spec.setPollMillis("50");
        return spec;
    }

    /** The queues' depth and the age of their oldest message, from the database, read at most every 5 s. */
    @Test
    void theQueuesDepthAndOldestMessageAreRead() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            StatisticsPlugin stats = h.ra.getStatistics();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            EndpointActivation a = h.ra.activations().get(0);
            a.pause();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.parkedReaders() == a.readerCount());
            assertEquals(0L, stats.getValue("QueueDepth"));
            assertEquals(0L, stats.getValue("PendingConversationGroups"));
            long endpoints = (Long) stats.getValue("ConversationEndpoints");
            h.send("x", "y");
            h.send("z");
            Awaitility.await("read again within 5 s").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> Long.valueOf(3).equals(stats.getValue("QueueDepth")));
            assertEquals(2L, stats.getValue("PendingConversationGroups"), "two conversations, a group each");
            assertEquals(endpoints + 4, stats.getValue("ConversationEndpoints"), "two dialogs, two sides each");
            assertEquals(0L, stats.getValue("StaleConversationEndpoints"), "none begun an hour ago");
            assertEquals(0L, stats.getValue("TransmissionQueueDepth"));
            Awaitility.await("the oldest message ages").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> (Long) stats.getValue("OldestMessageAgeSeconds") >= 1);
            a.resume();
            Awaitility.await("drained").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Long.valueOf(0).equals(stats.getValue("QueueDepth"))
                            && Long.valueOf(0).equals(stats.getValue("OldestMessageAgeSeconds")));
        }
    }
}
