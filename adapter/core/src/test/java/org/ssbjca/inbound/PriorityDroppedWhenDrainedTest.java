package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.inbound.InboundFeaturesTest.bytes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;

/**
 * A priority set outside this activation's scans (the outbound {@code setPriority}, here in the transaction that
 * sends the group's message) on a group the reader takes and drains before its next scan is dropped once the
 * delivery committed, as a priority the scan found is: the group's later messages do not overtake older ones.
 */
class PriorityDroppedWhenDrainedTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPrioritySetOutsideTheScansIsDroppedOnceItsGroupIsDrained(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            HoldingBean bean = new HoldingBean();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setWaitTimeout("60000"); // the idle reader waits in its RECEIVE: no scan until a message comes
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            // a group served before the urgent one: in turn order, its next message goes before the urgent group's
            Conversation earlier = h.send("first");
            await("the first delivery committed").until(() -> a.metrics().committed() == 1);
            await("the reader waits in its RECEIVE").until(() -> a.priorities().scans() >= 1
                    && h.db.broker().signals().waiters(InboundHarness.TARGET_QUEUE, true) == 1);

            // the application sends a request and sets its group's priority in one transaction
            UUID[] group = new UUID[1];
            Conversation urgent = h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, bytes("urgent"));
                group[0] = h.db.broker().ledger(s.connection()).pendingGroups(InboundHarness.TARGET_QUEUE, 10)
                        .get(0).groupId();
                s.setPriority(group[0], 200);
                return c;
            });
            await("the urgent request's delivery committed").until(() -> a.metrics().committed() == 2);
            await("the drained group's priority is dropped").until(() -> priorities(h).isEmpty());

            // the group's next message waits its turn behind an older one of a group served before it
            h.send("hold");
            await("the reader holds the next delivery").until(() -> bean.seen.size() == 3);
            send(h, earlier, "older");
            send(h, urgent, "later");
            bean.release.countDown();
            await("every message delivered").until(() -> bean.seen.size() == 5);
            assertEquals(List.of("first", "urgent", "hold", "older", "later"), bean.seen);
        }
    }

    /**
     * A priority another node's scan recorded from a priority request (written to the table directly, unseen by this
     * server, which believes the queue without priorities for 500 ms) on a group this activation's reader then takes,
     * request and all, before it scans: the request in the batch says the group may have a priority.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPriorityAnotherNodeRecordedIsDroppedOnceItsGroupIsDrained(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            HoldingBean bean = new HoldingBean();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setWaitTimeout("60000");
            spec.setReceiveBatchSize("10"); // the request and the priority request in one RECEIVE, no scan between
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            await("the first scan ran and the reader waits in its RECEIVE").until(() -> a.priorities().scans() >= 1
                    && h.db.broker().signals().waiters(InboundHarness.TARGET_QUEUE, true) == 1);
            // a RECEIVE of this server finds the queue without prioritised groups, and believes it for 500 ms
            h.tx(s -> s.receive(ReceiveRequest.from(InboundHarness.TARGET_QUEUE).timeout(Duration.ZERO)));

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, bytes("urgent"));
                s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes("<priority>200</priority>"));
                UUID group = h.db.broker().ledger(s.connection()).pendingGroups(InboundHarness.TARGET_QUEUE, 10)
                        .get(0).groupId();
                try (PreparedStatement st = s.connection().prepareStatement("INSERT INTO ssb.conversation_priority"
                        + " (conversation_group_id, queue_name, priority, request_order, requested_at)"
                        + " VALUES (?, ?, 200, 1, CURRENT_TIMESTAMP)")) {
                    st.setObject(1, group);
                    st.setString(2, InboundHarness.TARGET_QUEUE);
                    st.executeUpdate();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return c;
            });
            await("the urgent request's delivery committed").until(() -> a.metrics().committed() == 1);
            await("the drained group's priority is dropped").until(() -> priorities(h).isEmpty());
            assertEquals(List.of("urgent"), bean.seen);
        }
    }

    /**
     * With {@code commitBeforeDelivery}, a RECEIVE that takes nothing for the bean (here the group's priority request,
     * behind the request the bean was given) drains the group as well: its priority is dropped in that RECEIVE's
     * transaction, not only after a delivery, which this batch never has.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aReceiveFirstBatchWithNothingForTheBeanDropsTheDrainedGroupsPriority(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            HoldingBean bean = new HoldingBean();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, bytes("urgent"));
                s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes("<priority>200</priority>"));
                return c;
            });
            await("the request delivered and the priority request consumed")
                    .until(() -> bean.seen.size() == 1 && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            await("the drained group's priority is dropped").until(() -> priorities(h).isEmpty());
            assertEquals(List.of("urgent"), bean.seen);
            assertEquals(true, a.priorities().scans() >= 1, "a scan ran");
        }
    }

    private static void send(InboundHarness h, Conversation c, String body) {
        h.tx(s -> {
            s.send(c.handle(), InboundHarness.REQUEST, bytes(body));
            return null;
        });
    }

    private static Map<UUID, Integer> priorities(InboundHarness h) throws Exception {
        try (Connection c = h.db.source().open()) {
            return h.db.broker().ledger(c).priorities(InboundHarness.TARGET_QUEUE);
        }
    }

    /** Records the bodies delivered; holds the delivery of "hold" until the test releases it. */
    static final class HoldingBean implements BrokerMessageListener {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void onMessage(BrokerMessage message) {
            seen.add(message.bodyAsText());
            try {
                if ("hold".equals(message.bodyAsText()) && !release.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the held delivery");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
