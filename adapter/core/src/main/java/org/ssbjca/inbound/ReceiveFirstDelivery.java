package org.ssbjca.inbound;

import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.backend.Received;
import org.ssbjca.support.AdapterLog;

/**
 * {@code commitBeforeDelivery}: the RECEIVE commits before the bean sees the messages (at most once). A failing bean
 * loses them, and several readers can work on one conversation's messages in parallel. What the bean must not see is
 * set aside in the RECEIVE's transaction, as {@link DeliverySteps#prepare} does for the other modes. Each message
 * (or the batch, for a conversation-group listener) is then one call in the container's transaction if the bean is
 * transacted.
 */
final class ReceiveFirstDelivery implements DeliveryMode {

    private static final AdapterLog LOG = AdapterLog.of(ReceiveFirstDelivery.class);

    @Override
    public void deliverOnce(DeliverySteps steps) throws Exception {
        Batch[] taken = new Batch[1];
        // rolled back on an Error too; auto-commit on afterwards, so that what runs after the delivery on this
        // connection without a container transaction (dropping a drained group's priority) commits at once
        steps.inLocalTransaction(() -> {
            Received received = steps.receive();
            taken[0] = steps.setAside(received);
            if (!received.isEmpty()) {
                // here, not only after a delivery: a batch with nothing for the bean (a priority request, an
                // EndDialog, a dead letter) may be the one that drains the group
                steps.dropPriorityIfDrained(taken[0]);
            }
        });
        Batch sorted = taken[0];
        steps.metrics().received.add(sorted.received.size());
        try {
            steps.countSetAside(sorted); // says what was set aside (a JMX listener's Error comes through here)
            steps.wakeOthersIfMoreWait(sorted, true);
        } catch (RuntimeException | Error e) {
            lost(steps, List.of(sorted.application));
            throw e;
        }
        List<BrokerMessage> messages = sorted.application;
        if (messages.isEmpty()) {
            return;
        }
        List<List<BrokerMessage>> deliveries = new ArrayList<>();
        if (steps.batchListener()) {
            deliveries.add(messages);
        } else {
            messages.forEach(m -> deliveries.add(List.of(m)));
        }
        // a failure of the container (not the bean's) goes to the reader's failure path; the committed messages it
        // leaves undelivered are lost, and said so
        for (int i = 0; i < deliveries.size(); i++) {
            try {
                steps.beforeDelivery();
            } catch (Exception | Error e) {
                lost(steps, deliveries.subList(i, deliveries.size()));
                throw e;
            }
            try {
                deliver(steps, deliveries.get(i));
            } catch (Exception | Error e) {
                lost(steps, deliveries.subList(i + 1, deliveries.size()));
                throw e;
            }
        }
    }

    private static void lost(DeliverySteps steps, List<List<BrokerMessage>> deliveries) {
        int messages = deliveries.stream().mapToInt(List::size).sum();
        if (messages > 0) {
            LOG.receivedFirstAndLost(steps.reader(), messages);
        }
    }

    /**
     * One call of the bean after its {@code beforeDelivery}, in the container's transaction if it is transacted; its
     * messages lost if it fails.
     */
    private static void deliver(DeliverySteps steps, List<BrokerMessage> delivery) throws Exception {
        Batch batch = Batch.forBean(delivery);
        long start = System.nanoTime();
        boolean ok = true;
        try {
            ok = steps.deliver(batch);
        } finally {
            try {
                steps.afterDelivery();
            } finally {
                boolean committed = DeliverySteps.committed(ok, steps.takeOutcome(), false);
                steps.count(batch, committed, start);
                if (!committed) {
                    LOG.receivedFirstAndLost(steps.reader(), delivery.size());
                }
            }
        }
    }

    @Override
    public String describe() {
        return "receive-commits-first (at most once)";
    }
}
