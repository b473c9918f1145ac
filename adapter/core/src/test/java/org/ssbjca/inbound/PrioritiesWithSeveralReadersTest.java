package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.inbound.InboundFeaturesTest.bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;

/**
 * Priority requests committed while every one of several readers is busy: once the readers are free, no reader takes
 * a group without priority while a group with one waits.
 */
class PrioritiesWithSeveralReadersTest {

    private static final int READERS = 4;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void readersFreedTogetherTakeThePrioritisedGroupsFirst(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            GatedBean bean = new GatedBean();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(String.valueOf(READERS));
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            for (int i = 0; i < READERS; i++) {
                send(h, "busy" + i, null);
            }
            await().until(() -> bean.started.size() == READERS);

            // while every reader is busy: plain groups and prioritised ones, interleaved
            for (String body : List.of("p1", "h10", "p2", "h60", "h20", "p3", "h50", "h30", "p4", "h40")) {
                send(h, body, body.startsWith("h") ? Integer.valueOf(body.substring(1)) : null);
            }
            bean.gate.release(READERS);

            // the four freed readers each take a group, and the bean holds them: the four best groups
            await().until(() -> bean.started.size() == 2 * READERS);
            List<String> order = new ArrayList<>(bean.started);
            Set<String> firstWave = new TreeSet<>(order.subList(READERS, 2 * READERS));
            assertEquals(new TreeSet<>(List.of("h60", "h50", "h40", "h30")), firstWave,
                    "the readers freed together took the four highest priorities, no plain group; started: " + order);
            // then one reader at a time is let go: each takes the best group left
            for (String next : List.of("h20", "h10", "p1", "p2", "p3", "p4")) {
                int before = bean.started.size();
                bean.gate.release(1);
                await().until(() -> bean.started.size() == before + 1);
                assertEquals(next, bean.started.get(before), "started: " + bean.started);
            }
            bean.gate.release(100);
            await().until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
        }
    }

    private static void send(InboundHarness h, String body, Integer priority) {
        h.tx(s -> {
            Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET, InboundHarness.CONTRACT,
                    DialogOptions.defaults());
            s.send(c.handle(), InboundHarness.REQUEST, bytes(body));
            if (priority != null) {
                s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes("<priority>" + priority + "</priority>"));
            }
            return c;
        });
    }

    /** Records the deliveries as they start; each then waits for a permit the test gives. */
    static final class GatedBean implements BrokerMessageListener {
        final List<String> started = new CopyOnWriteArrayList<>();
        final Semaphore gate = new Semaphore(0);

        @Override
        public void onMessage(BrokerMessage message) {
            started.add(message.bodyAsText());
            try {
                if (!gate.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let this delivery go");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
