package org.ssbjca.sample.priority;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Seed 000's client: opens one dialog per request to PriorityService on contract RequestWithPriority, sends a
 * {@code LongWorkloadRequest} on each, and on every 10th request also a {@code SetPriority} with priority = its
 * number; then collects the responses and ends each conversation when its response arrives.
 */
@Stateless
public class PriorityClient {

    static final String CLIENT_SERVICE = "PriorityClientService";
    static final String CLIENT_QUEUE = "PriorityClientQueue";
    static final String SERVICE = "PriorityService";
    static final String CONTRACT = "RequestWithPriority";
    static final String SET_PRIORITY = "SetPriority";
    /**
     * How long request 0 stays in work after the last request was committed. The adapter's readers look for
     * priority requests in the queue at most every 250 ms, so a SetPriority committed a moment before the reader
     * picks its next conversation may be seen one look later; the seed has the same effect (its 80 came before 90).
     */
    static final Duration PRIORITY_SCAN_SETTLE = Duration.ofMillis(300);
    private static final Duration RECEIVE_SLICE = Duration.ofSeconds(1);

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Resource
    private SessionContext context;

    /**
     * Sends {@code count} requests, each on a dialog of its own and in a transaction of its own, as the seed's loop
     * does. Request 0 is held in work (see {@link WorkloadHolds}) until every request has been committed.
     *
     * @param count how many requests, 1 to 200
     * @param workloadMillis how long the service works on each request, 0 to 60000
     * @param caller who sends them, written into each request
     * @return the dialogs, in the order of the requests
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Conversation> sendRequests(int count, int workloadMillis, String caller) {
        if (count < 1 || count > 200) {
            throw new IllegalArgumentException("count must be between 1 and 200: " + count);
        }
        if (workloadMillis < 0 || workloadMillis > 60_000) {
            throw new IllegalArgumentException("workloadMillis must be between 0 and 60000: " + workloadMillis);
        }
        PriorityClient self = context.getBusinessObject(PriorityClient.class);
        String hold = UUID.randomUUID().toString();
        WorkloadHolds.open(hold);
        try {
            List<Conversation> dialogs = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                dialogs.add(self.sendRequest(WorkloadRequest.now(i, caller, workloadMillis, i == 0 ? hold : null)));
            }
            Thread.sleep(PRIORITY_SCAN_SETTLE.toMillis());
            return dialogs;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            WorkloadHolds.release(hold);
        }
    }

    /**
     * Begins a dialog and sends one request on it, and {@code SetPriority} too when the request's number is a
     * multiple of 10, in a transaction of its own.
     *
     * @param request the request
     * @return the initiator's side of the dialog
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Conversation sendRequest(WorkloadRequest request) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Conversation dialog = broker.beginDialog(CLIENT_SERVICE, SERVICE, CONTRACT);
            broker.sendText(dialog, WorkloadRequest.TYPE, request.toXml());
            if (request.number() % 10 == 0) {
                broker.sendText(dialog, SET_PRIORITY, "<priority>" + request.number() + "</priority>");
            }
            return dialog;
        }
    }

    /**
     * Receives the responses on these dialogs, ending each dialog when its response arrives, until all came or the
     * time is up.
     *
     * @param dialogs the dialogs of {@link #sendRequests}
     * @param timeout how long to wait in all
     * @return the responses, in the order they arrived in the client's queue
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<PriorityResponse> collectResponses(List<Conversation> dialogs, Duration timeout) {
        PriorityClient self = context.getBusinessObject(PriorityClient.class);
        Set<UUID> mine = new HashSet<>();
        dialogs.forEach(d -> mine.add(d.handle()));
        List<PriorityResponse> responses = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (responses.size() < dialogs.size() && System.nanoTime() < deadline) {
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            responses.addAll(self.receiveResponses(mine, left.compareTo(RECEIVE_SLICE) < 0 ? left : RECEIVE_SLICE));
        }
        responses.sort(Comparator.comparingLong(PriorityResponse::arrival));
        return responses;
    }

    /**
     * One RECEIVE from the client's queue, in a transaction of its own: keeps the responses on the given dialogs and
     * ends every conversation it hears from (responses left over from an earlier run are dropped).
     *
     * @param mine the handles of the dialogs whose responses are wanted
     * @param wait how long to wait for a message
     * @return the responses received
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<PriorityResponse> receiveResponses(Set<UUID> mine, Duration wait) {
        List<PriorityResponse> got = new ArrayList<>();
        Set<Conversation> heardFrom = new LinkedHashSet<>();
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            for (BrokerMessage m : broker.receive(ReceiveRequest.from(CLIENT_QUEUE).top(10).timeout(wait))) {
                if (PriorityResponse.TYPE.equals(m.messageTypeName()) && mine.contains(m.conversationHandle())) {
                    got.add(PriorityResponse.of(m));
                }
                heardFrom.add(m.conversation());
            }
            heardFrom.forEach(broker::endConversation);
        }
        return got;
    }
}
