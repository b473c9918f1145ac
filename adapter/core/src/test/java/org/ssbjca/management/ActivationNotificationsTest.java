package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.Jmx.SERVER;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.CircuitBreaker;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * The activation MBean's notifications, raised by real events (a poison message, a disabled queue, a missing queue
 * the reader keeps reconnecting to) and received by a listener registered on the MBean server, as a JMX client does.
 */
class ActivationNotificationsTest {

    @Test
    void aDeadLetteredMessageIsNotified() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            BrokerMessageListener bean = m -> {
                throw new IllegalStateException("always fails");
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ObjectName name = ObjectNames.activation(Jmx.onlyActivation(h).name());
            List<Notification> got = listen(name);

            Conversation c = h.send("poison");

            Notification n = awaitType(got, ActivationNotifications.DEAD_LETTERED);
            assertEquals(name, n.getSource());
            assertTrue(n.getMessage().contains("dead-lettered"), n.getMessage());
            CompositeData data = (CompositeData) n.getUserData();
            assertEquals(InboundHarness.TARGET_QUEUE, data.get("queue"));
            assertEquals(1, data.get("attempts"));
            assertEquals(InboundHarness.REQUEST, data.get("messageType"));
            assertEquals(0L, data.get("sequenceNumber"), "the first message of its conversation");
            assertTrue(!c.handle().toString().equals(data.get("conversationHandle")),
                    "the target side's handle, not the initiator's");
            SERVER.removeNotificationListener(name, (NotificationListener) got);
        }
    }

    @Test
    void aDisabledQueueIsNotifiedAndTheReaderRecoversOnceEnabled() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            h.admin(a -> a.setQueueEnabled(InboundHarness.TARGET_QUEUE, false));
            List<String> done = new CopyOnWriteArrayList<>();
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            List<Notification> got = listen(ObjectNames.activation(a.name()));

            Notification n = awaitType(got, ActivationNotifications.QUEUE_DISABLED);

            assertEquals(InboundHarness.TARGET_QUEUE, ((CompositeData) n.getUserData()).get("queue"));
            assertTrue(Jmx.proxy(a).getLastError().contains("disabled"), Jmx.proxy(a).getLastError());
            h.admin(x -> x.setQueueEnabled(InboundHarness.TARGET_QUEUE, true));
            h.send("after");
            await("delivered once the queue is enabled").until(() -> done.contains("after"));
        }
    }

    @Test
    void aReaderThatCannotReadItsQueueIsNotifiedAsReconnecting() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> done = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setQueue("LateQueue");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> done.add(m.bodyAsText()), true,
                    spec);
            List<Notification> got = listen(ObjectNames.activation(Jmx.onlyActivation(h).name()));

            Notification n = awaitType(got, ActivationNotifications.RECONNECTING);

            CompositeData data = (CompositeData) n.getUserData();
            assertEquals("LateQueue", data.get("queue"));
            assertTrue(((String) data.get("reader")).startsWith("reader 1 of "), (String) data.get("reader"));
            assertTrue((Long) data.get("delayMillis") >= 0);
            assertTrue(((String) data.get("error")).contains("does not exist"), (String) data.get("error"));
            h.admin(a -> {
                a.createQueue("LateQueue");
                a.createService("Late", "LateQueue", InboundHarness.CONTRACT);
            });
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, "Late", InboundHarness.CONTRACT,
                        DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "finally".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return c;
            });
            await("delivered once the queue exists").until(() -> done.contains("finally"));
        }
    }

    /**
     * failure-policy.md's "What you see": an outage opens the breaker (SSBJCA0240, {@code org.ssbjca.breaker.opened}
     * with the activation, the failures, the probe's delay and the error; the MXBean's breaker attributes), a failed
     * probe says so (SSBJCA0241, opened again), the first success closes it (SSBJCA0242,
     * {@code org.ssbjca.breaker.closed}).
     */
    @Test
    void anOutageIsNotifiedAsTheBreakerOpensAndClosesAndLogged() throws Exception {
        try (InboundHarness h = new InboundHarness();
                LogRecords log = LogRecords.of(CircuitBreaker.class)) {
            AtomicBoolean down = new AtomicBoolean(true);
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (down.get()) {
                    throw new IllegalStateException("the stock service is down");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("4"); // several messages fail at once: one message failing alone never opens it
            spec.setMaxDeliveryAttempts("50");
            spec.setBreakerThreshold("2");
            spec.setBreakerDelay("200");
            spec.setBreakerMaxDelay("400");
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = Jmx.onlyActivation(h);
            ObjectName name = ObjectNames.activation(a.name());
            List<Notification> got = listen(name);
            for (int i = 0; i < 5; i++) {
                h.send("order " + i);
            }

            Notification opened = awaitType(got, ActivationNotifications.BREAKER_OPENED);
            CompositeData data = (CompositeData) opened.getUserData();
            assertEquals(a.name(), data.get("activation"));
            int failures = (Integer) data.get("failures");
            assertTrue(failures >= 2, "at least the threshold: " + failures);
            long probeIn = (Long) data.get("probeInMillis");
            assertTrue(probeIn >= 160 && probeIn <= 200, "breakerDelay less up to 20%: " + probeIn);
            assertTrue(((String) data.get("error")).contains("the stock service is down"), (String) data.get("error"));
            ActivationMXBean mx = Jmx.proxy(a);
            assertEquals(1, mx.getBreakerTrips());
            assertTrue(mx.isBreakerOpen());
            assertTrue(mx.getBreakerOpenedAt() != null, "BreakerOpenedAt while open");
            await("a failed probe").until(() -> !log.messages(Level.WARNING, "SSBJCA0241").isEmpty());
            List<String> openedLines = log.messages(Level.WARNING, "SSBJCA0240");
            assertEquals(1, openedLines.size(), openedLines.toString());
            assertTrue(openedLines.get(0).contains("circuit breaker open after " + failures + " failed deliveries in a"
                    + " row"), openedLines.toString());
            // logged, then notified: the notification may come a moment after the line
            await("a failed probe opens it again, notified").until(() -> got.stream()
                    .filter(n -> n.getType().equals(ActivationNotifications.BREAKER_OPENED)).count() >= 2);
            assertEquals(1, mx.getBreakerTrips(), "a failed probe is not a new trip");

            down.set(false);
            Notification closed = awaitType(got, ActivationNotifications.BREAKER_CLOSED);
            CompositeData closedData = (CompositeData) closed.getUserData();
            assertEquals(a.name(), closedData.get("activation"));
            assertTrue((Long) closedData.get("openMillis") >= probeIn, "open at least until the first probe");
            await("every order delivered").until(() -> done.size() == 5);
            assertEquals(1, log.messages(Level.INFO, "SSBJCA0242").size());
            assertEquals("CLOSED", mx.getBreakerState());
            assertNull(mx.getBreakerNextProbe());
            SERVER.removeNotificationListener(name, (NotificationListener) got);
        }
    }

    @Test
    void theNotificationTypesAreDescribed() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> { }, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ObjectName name = ObjectNames.activation(a.name());
            List<String> types = new CopyOnWriteArrayList<>();
            for (MBeanNotificationInfo info : SERVER.getMBeanInfo(name).getNotifications()) {
                types.addAll(List.of(info.getNotifTypes()));
            }
            assertEquals(List.of(ActivationNotifications.DEAD_LETTERED, ActivationNotifications.QUEUE_DISABLED,
                    ActivationNotifications.RECONNECTING, ActivationNotifications.BREAKER_OPENED,
                    ActivationNotifications.BREAKER_CLOSED), types);
            h.ra.endpointDeactivation(factory, null);
            assertTrue(!SERVER.isRegistered(name), "unregistered at deactivation");
        }
    }

    private static List<Notification> listen(ObjectName name) throws Exception {
        Recorder recorder = new Recorder();
        SERVER.addNotificationListener(name, recorder, null, null);
        return recorder;
    }

    private static Notification awaitType(List<Notification> got, String type) throws InterruptedException {
        await("a " + type + " notification").until(() -> first(got, type).isPresent());
        return first(got, type).orElseThrow();
    }

    private static Optional<Notification> first(List<Notification> got, String type) {
        return got.stream().filter(n -> n.getType().equals(type)).findFirst();
    }

    /** Records the notifications it receives. */
    private static final class Recorder extends CopyOnWriteArrayList<Notification> implements NotificationListener {
        private static final long serialVersionUID = 1L;

        @Override
        public void handleNotification(Notification notification, Object handback) {
            add(notification);
        }
    }
}
