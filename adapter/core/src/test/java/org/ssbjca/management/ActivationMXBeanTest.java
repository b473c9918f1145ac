package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.Jmx.SERVER;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ConversationGroupListener;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.HeldBean;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * The activation MBean against a real H2 broker and a fake container, used the way a JMX client uses it: through an
 * MXBean proxy on the platform MBean server (values travel as open types and back) and through raw attributes.
 */
class ActivationMXBeanTest {

    @Test
    void attributesReflectRealDeliveriesAsOpenTypes() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger flakyCalls = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("flaky") && flakyCalls.incrementAndGet() == 1) {
                    throw new IllegalStateException("flaky fails once");
                }
                done.add(m.bodyAsText());
            };
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);

            h.send("a", "flaky", "b");

            await("three commits and one rollback").until(() -> mx.getCommitted() == 3 && mx.getRolledBack() == 1);
            assertEquals(List.of("a", "flaky", "b"), done);
            assertEquals(a.name(), mx.getName());
            assertEquals(InboundHarness.TARGET_QUEUE, mx.getQueue());
            assertTrue(mx.getBackend().startsWith("H2[jdbc:h2:mem:"), mx.getBackend());
            assertEquals(4, mx.getReceived(), "a, flaky twice, b");
            assertEquals(3, mx.getDelivered());
            assertEquals(1, mx.getRedelivered(), "flaky was delivered after a failed delivery");
            assertEquals(0, mx.getDeadLettered());
            assertTrue(mx.getMeanDeliveryMillis() > 0);
            assertTrue(mx.getP99DeliveryMillis() >= mx.getMeanDeliveryMillis() * 0.999);
            assertTrue(mx.getLastError().contains("flaky fails once"), mx.getLastError());
            assertNotNull(mx.getLastErrorTime());
            assertEquals(0, mx.getQueueDepth());
            assertTrue(mx.getPendingConversationGroups().isEmpty());
            assertTrue(mx.getInFlightDeliveries().isEmpty());
            assertEquals(1, mx.getMaxReaders());
            assertFalse(mx.isPaused());

            ObjectName name = ObjectNames.activation(a.name());
            MBeanInfo info = SERVER.getMBeanInfo(name);
            assertEquals("true", info.getDescriptor().getFieldValue("mxbean"));
            for (MBeanAttributeInfo attribute : info.getAttributes()) {
                assertNotNull(attribute.getDescriptor().getFieldValue("openType"), attribute.getName());
            }
            assertInstanceOf(CompositeData[].class, SERVER.getAttribute(name, "PendingConversationGroups"));
            assertInstanceOf(CompositeData[].class, SERVER.getAttribute(name, "InFlightDeliveries"));
            assertInstanceOf(Date.class, SERVER.getAttribute(name, "LastErrorTime"));
            assertEquals(3L, SERVER.getAttribute(name, "Delivered"));
        }
    }

    @Test
    void pendingGroupsShowWhatWaitsAndSetPriorityReordersThem() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> order = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> order.add(m.bodyAsText()), true,
                    h.spec());
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            pauseFully(mx);

            h.send("g1-a", "g1-b");
            h.send("g2");
            h.send("g3");

            assertEquals(4, mx.getQueueDepth());
            List<PendingGroupInfo> pending = mx.getPendingConversationGroups();
            assertEquals(List.of(2L, 1L, 1L), pending.stream().map(PendingGroupInfo::getMessages)
                    .collect(Collectors.toList()), "in queue order");
            assertTrue(pending.stream().allMatch(p -> p.getPriority() == null && p.getOldestMessage() != null));

            mx.setPriority(pending.get(2).getGroupId(), 9);
            mx.setPriority(pending.get(1).getGroupId(), 5);
            List<Integer> priorities = new ArrayList<>();
            List<Long> sizes = new ArrayList<>();
            mx.getPendingConversationGroups().forEach(p -> {
                priorities.add(p.getPriority());
                sizes.add(p.getMessages());
            });
            assertEquals(java.util.Arrays.asList(9, 5, null), priorities, "listed in the order the readers take them");
            assertEquals(List.of(1L, 1L, 2L), sizes);

            mx.resume();
            await("all delivered").until(() -> order.size() == 4);
            assertEquals(List.of("g3", "g2", "g1-a", "g1-b"), order, "highest priority first, then queue order");
            assertTrue(mx.getPendingConversationGroups().isEmpty());

            assertThrows(IllegalArgumentException.class, () -> mx.setPriority("not-a-group", 1));
            assertThrows(IllegalArgumentException.class, () -> mx.setPriority(UUID.randomUUID().toString(), 256));
            IllegalStateException unknown = assertThrows(IllegalStateException.class,
                    () -> mx.setPriority(UUID.randomUUID().toString(), 1));
            assertTrue(unknown.getMessage().contains("does not exist"), unknown.getMessage());
        }
    }

    @Test
    void inFlightDeliveriesShowWhichReaderDeliversWhichGroupSinceWhen() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<UUID> group = new AtomicReference<>();
            BrokerMessageListener bean = m -> {
                group.set(m.conversationGroupId());
                HeldBean.awaitQuietly(release);
            };
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
            Date before = new Date();

            h.send("slow");

            await("one delivery in flight").until(() -> mx.getActiveReaders() == 1);
            List<InFlightDeliveryInfo> inFlight = mx.getInFlightDeliveries();
            assertEquals(1, inFlight.size());
            InFlightDeliveryInfo d = inFlight.get(0);
            assertTrue(d.getReader().startsWith("reader 1 of "), d.getReader());
            assertEquals(group.get().toString(), d.getConversationGroup());
            assertEquals(1, d.getMessages());
            assertFalse(d.getSince().before(new Date(before.getTime() - 1000)));
            assertTrue(d.getRunningMillis() >= 0);

            release.countDown();
            await("delivery finished").until(() -> mx.getActiveReaders() == 0 && mx.getInFlightDeliveries().isEmpty());
        }
    }

    @Test
    void maxReadersWrittenThroughJmxRaisesConcurrencyAtOnce() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            HeldBean bean = new HeldBean();
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            for (int i = 0; i < 3; i++) {
                h.send("slow " + i);
            }
            await("one delivery").until(() -> bean.concurrent.get() == 1);
            assertEquals(1, mx.getActiveReaders());

            mx.setMaxReaders(3);

            assertEquals(3, mx.getMaxReaders());
            assertEquals(3, a.readerCount());
            await("three deliveries at once").until(() -> bean.concurrent.get() == 3 && mx.getActiveReaders() == 3);
            bean.release();
            await("queue drained").until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            mx.setMaxReaders(1);
            assertEquals(1, a.readerCount());
            assertEquals(3, bean.peak.get());

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mx.setMaxReaders(0));
            assertTrue(e.getMessage().contains("between 1 and 256"), e.getMessage());
            assertEquals(1, mx.getMaxReaders());
        }
    }

    @Test
    void receiveBatchSizeAndWaitTimeoutWrittenThroughJmxApplyToTheNextReceive() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<Integer> batches = new CopyOnWriteArrayList<>();
            ConversationGroupListener bean = messages -> batches.add(messages.size());
            h.activate(ConversationGroupListener.class, bean, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            assertEquals(1, mx.getReceiveBatchSize());
            pauseFully(mx);

            mx.setReceiveBatchSize(5);
            mx.setWaitTimeout(250);
            h.send("1", "2", "3", "4", "5");
            mx.resume();

            await("five messages delivered").until(() -> batches.stream().mapToInt(Integer::intValue).sum() == 5);
            assertEquals(List.of(5), batches, "one RECEIVE took all five");
            assertEquals(5, a.receiveBatchSize());
            assertEquals(250, a.waitTimeoutMillis());
            assertEquals(250, mx.getWaitTimeout());
            assertThrows(IllegalArgumentException.class, () -> mx.setReceiveBatchSize(0));
            assertThrows(IllegalArgumentException.class, () -> mx.setWaitTimeout(99));
            assertEquals(5, mx.getReceiveBatchSize());
        }
    }

    @Test
    void pauseStopsDeliveriesAndResumeRestartsThem() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> done = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            pauseFully(mx);
            assertTrue(mx.isPaused());
            h.send("held 1");
            h.send("held 2");
            Awaitility.await("paused: nothing delivered for 1.5 s")
                    .during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(30))
                    .until(done::isEmpty);
            assertEquals(2, mx.getQueueDepth());
            assertEquals(0, mx.getDelivered());

            mx.resume();
            assertFalse(mx.isPaused());
            await("both delivered after resume").until(() -> done.size() == 2);
            await("no reader parked, queue empty").until(() -> mx.getParkedReaders() == 0 && mx.getQueueDepth() == 0);
        }
    }

    @Test
    void deadLettersAreListedRedeliveredAndPurged() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicBoolean refusing = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (refusing.get() && m.bodyAsText().startsWith("poison")) {
                    throw new IllegalStateException("poison refused");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            h.send("poison 1");
            h.send("poison 2");
            h.send("fine");

            await("two dead letters, the rest delivered")
                    .until(() -> mx.getDeadLettered() == 2 && done.contains("fine"));
            List<DeadLetterInfo> letters = mx.listDeadLetters(10);
            assertEquals(List.of("poison 1", "poison 2"), letters.stream().map(DeadLetterInfo::getBody)
                    .collect(Collectors.toList()), "oldest first");
            DeadLetterInfo first = letters.get(0);
            assertEquals(2, first.getAttempts());
            assertEquals(InboundHarness.REQUEST, first.getMessageType());
            assertTrue(first.getLastError().contains("poison refused"), first.getLastError());
            assertNotNull(first.getDeadLetteredAt());
            assertEquals(1, mx.listDeadLetters(1).size());

            refusing.set(false);
            assertTrue(mx.redeliverDeadLetter(first.getId()));
            assertTrue(done.contains("poison 1"));
            assertEquals(1, mx.listDeadLetters(10).size());
            assertFalse(mx.redeliverDeadLetter(first.getId()), "no longer a dead letter");

            assertEquals(1, mx.purgeDeadLetters());
            assertTrue(mx.listDeadLetters(10).isEmpty());
            assertFalse(done.contains("poison 2"), "purged, never delivered");
            assertThrows(IllegalArgumentException.class, () -> mx.listDeadLetters(0));
            mx.pause();
            IllegalStateException paused = assertThrows(IllegalStateException.class,
                    () -> mx.redeliverDeadLetter(1));
            assertTrue(paused.getMessage().contains("paused"), paused.getMessage());
        }
    }

    /** Pauses and waits until every reader is parked, so that nothing more is delivered. */
    /**
     * The hygiene operations as a JMX client calls them: a fire-and-forget sender whose target bean never ends
     * leaves endpoints; they are listed by service and state (open types), not among those begun over a minute ago,
     * and ended WITH CLEANUP up to the count the operator confirms; bad arguments name the accepted values.
     */
    @Test
    void leftConversationsAreListedAndEndedWithCleanup() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setHandleSystemMessages("DELIVER"); // the bean is given the EndDialogs and, buggy, ignores them
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.bodyAsText()), true, spec);
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            for (int i = 0; i < 3; i++) {
                org.ssbjca.api.Conversation c = h.send("fire-" + i);
                h.tx(s -> {
                    s.endConversation(c.handle(), null, null);
                    return null;
                });
            }
            await("the three messages and their EndDialogs delivered").until(() -> got.size() == 6);
            ObjectName name = ObjectNames.activation(a.name());
            CompositeData[] listed = (CompositeData[]) SERVER.invoke(name, "listConversations", new Object[] {0L},
                    new String[] {"long"});
            List<String> rows = java.util.Arrays.stream(listed).map(d -> d.get("service") + "/" + d.get("state") + "="
                    + d.get("count")).collect(Collectors.toList());
            assertTrue(rows.contains(InboundHarness.TARGET + "/DI=3"), rows.toString());
            assertTrue(rows.contains(InboundHarness.INITIATOR + "/DO=3"), rows.toString());
            assertTrue(mx.listConversations(1).isEmpty(), "none begun over a minute ago");
            await("the endpoints metric (read at most every 5 s)").until(() -> mx.getConversationEndpoints().stream()
                    .mapToLong(ConversationCountInfo::getCount).sum() == 6);

            IllegalArgumentException state = assertThrows(IllegalArgumentException.class,
                    () -> mx.endConversations(InboundHarness.TARGET, "XX", 0, 3));
            assertTrue(state.getMessage().contains("state must be one of [CO, DI, DO, ER, SI, SO], was XX"),
                    state.getMessage());
            IllegalArgumentException max = assertThrows(IllegalArgumentException.class,
                    () -> mx.endConversations(InboundHarness.TARGET, "DI", 0, 0));
            assertTrue(max.getMessage().contains("max must be between 1 and 100000, was 0"), max.getMessage());
            IllegalArgumentException age = assertThrows(IllegalArgumentException.class,
                    () -> mx.listConversations(-1));
            assertTrue(age.getMessage().contains("olderThanMinutes must be between 0 and 5256000, was -1"),
                    age.getMessage());
            assertEquals(0, mx.endConversations(InboundHarness.TARGET, "DI", 60, 3), "none that old");

            assertEquals(2, mx.endConversations(InboundHarness.TARGET, "DI", 0, 2), "no more than confirmed");
            assertEquals(1, mx.endConversations(InboundHarness.TARGET, "DI", 0, 3));
            assertEquals(3, mx.endConversations(InboundHarness.INITIATOR, "DO", 0, 3));
            assertTrue(mx.listConversations(0).stream().noneMatch(c -> c.getService().equals(
                    InboundHarness.TARGET) || c.getService().equals(InboundHarness.INITIATOR)),
                    "both sides gone");
        }
    }

    /**
     * More endpoints than one transaction ends ({@value ActivationManagement#END_CHUNK}): all ended, none beyond max.
     */
    @Test
    void endingMoreThanAChunkEndsThemAllAndNoMore() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);
            pauseFully(mx);
            int n = 2 * ActivationManagement.END_CHUNK + 1;
            h.tx(s -> {
                for (int i = 0; i < n; i++) {
                    org.ssbjca.api.Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, org.ssbjca.api.DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, new byte[] {1});
                    s.endConversation(c.handle(), null, null);
                }
                return null;
            });
            assertEquals(n - 1, mx.endConversations(InboundHarness.TARGET, "DI", 0, n - 1));
            assertEquals(1, mx.endConversations(InboundHarness.TARGET, "DI", 0, n));
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE), "WITH CLEANUP deleted their messages");
            assertEquals(n, mx.endConversations(InboundHarness.INITIATOR, "DO", 0, n));
        }
    }

    /**
     * Issue 47: the readers an open circuit breaker parks are counted apart from a pause's ({@code ParkedReaders}),
     * so that an operator (and the metric that reads the attribute) sees them wait; back to 0 once it closes.
     */
    @Test
    void theReadersAnOpenBreakerParksAreCountedApartFromAPause() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicBoolean down = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (down.get()) {
                    throw new IllegalStateException("the stock service is down");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("2");
            spec.setMaxDeliveryAttempts("50");
            spec.setBreakerThreshold("2");
            spec.setBreakerDelay("300");
            spec.setBreakerMaxDelay("600");
            for (String body : List.of("a", "b", "c")) {
                h.send(body); // a conversation each: a run of one message's failures never opens the breaker
            }
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ObjectName name = ObjectNames.activation(Jmx.onlyActivation(h).name());

            await("readers parked by the open breaker").atMost(Duration.ofSeconds(30))
                    .until(() -> (Integer) SERVER.getAttribute(name, "BreakerParkedReaders") >= 1
                            && (Boolean) SERVER.getAttribute(name, "BreakerOpen"));
            assertEquals(0, SERVER.getAttribute(name, "ParkedReaders"), "a breaker is not a pause");
            down.set(false);
            await("closed, all delivered").atMost(Duration.ofSeconds(30)).until(() -> done.size() == 3
                    && !(Boolean) SERVER.getAttribute(name, "BreakerOpen"));
            assertEquals(0, SERVER.getAttribute(name, "BreakerParkedReaders"));
            assertEquals(0L, SERVER.getAttribute(name, "DeadLettered"));
        }
    }

    static void pauseFully(ActivationMXBean mx) throws InterruptedException {
        mx.pause();
        await("every reader parked").until(() -> mx.getParkedReaders() == mx.getMaxReaders());
    }
}
