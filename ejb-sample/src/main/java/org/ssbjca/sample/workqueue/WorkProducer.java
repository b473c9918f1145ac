package org.ssbjca.sample.workqueue;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Puts work items on WorkQueue (seeds 003 and 004's "work queue table"). Each item is one {@code WorkItem} message
 * whose body is {@code "<run id> <item number>"}. Items travel on a few long-lived dialogs ("channels"), item i on
 * channel i modulo their number: each channel is a conversation group, the unit a reader locks, so there are as
 * many groups to work on in parallel as channels, without a dialog (and its endpoints) per item.
 */
@Stateless
public class WorkProducer {

    static final String PRODUCER_SERVICE = "WorkProducerService";
    static final String SERVICE = "WorkService";
    static final String CONTRACT = "WorkContract";

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private SessionContext context;

    /**
     * Begins a run: its channels.
     *
     * @param channels how many dialogs, 1 to 1000
     * @return the run
     */
    public WorkRun open(int channels) {
        if (channels < 1 || channels > 1000) {
            throw new IllegalArgumentException("channels must be between 1 and 1000: " + channels);
        }
        List<Conversation> dialogs = new ArrayList<>();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (int i = 0; i < channels; i++) {
                dialogs.add(broker.beginDialog(PRODUCER_SERVICE, SERVICE, CONTRACT));
            }
        }
        return new WorkRun(UUID.randomUUID().toString(), List.copyOf(dialogs));
    }

    /**
     * Sends items {@code first} to {@code first + count - 1}, in this transaction.
     *
     * @param run the run
     * @param first the first item's number
     * @param count how many
     */
    public void enqueue(WorkRun run, int first, int count) {
        List<Conversation> channels = run.channels();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (int i = first; i < first + count; i++) {
                broker.sendText(channels.get(i % channels.size()), WorkItemProcessor.TYPE, run.runId() + " " + i);
            }
        }
    }

    /**
     * Sends items 1 to {@code items}, {@code perTransaction} at a time, each lot in a transaction of its own.
     *
     * @param run the run
     * @param items how many
     * @param perTransaction how many in one transaction
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void enqueueAll(WorkRun run, int items, int perTransaction) {
        WorkProducer self = context.getBusinessObject(WorkProducer.class);
        for (int first = 1; first <= items; first += perTransaction) {
            self.enqueue(run, first, Math.min(perTransaction, items - first + 1));
        }
    }

    /**
     * Ends the run's channels; WorkService's side ends when the EndDialog arrives after the last item.
     *
     * @param run the run
     */
    public void close(WorkRun run) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            run.channels().forEach(broker::endConversation);
        }
    }
}
