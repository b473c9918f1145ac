package org.ssbjca.inbound;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.PriorityRequest;
import org.ssbjca.support.Xml;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/**
 * Finds priority requests wherever they sit in the queue (a queue can be read without removing anything) and
 * records each group's requested priority, so that readers take that group next. A request is a message of the
 * activation's {@code priorityMessageType} whose body is {@code <priority>n</priority>} (or just the number), n from
 * 0 to 255. No front-end service and no copying of messages is needed. At most one scan per interval per
 * activation; the scan also refreshes which groups have a priority.
 */
final class PriorityScanner {

    private static final Logger LOG = Logger.getLogger(PriorityScanner.class);
    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final String queue;
    private final String messageType;
    private final AtomicLong nextScan = new AtomicLong(System.nanoTime());
    private final Set<UUID> prioritised = ConcurrentHashMap.newKeySet();

    PriorityScanner(String queue, String messageType) {
        this.queue = queue;
        this.messageType = messageType;
    }

    /** @return whether this scan is due, and claims it */
    boolean claimScan() {
        long due = nextScan.get();
        return System.nanoTime() - due >= 0 && nextScan.compareAndSet(due, System.nanoTime() + INTERVAL_NANOS);
    }

    /**
     * Scans the queue and records the priorities requested; runs in the caller's (local) transaction.
     *
     * @param broker the broker
     * @param session a session on the connection to use
     */
    void scan(Broker broker, BrokerSession session) {
        DeliveryLedger ledger = broker.ledger(session.connection());
        Map<UUID, Integer> current = ledger.priorities(queue);
        if (messageType != null) {
            for (PriorityRequest r : ledger.priorityRequests(queue, messageType)) {
                Integer wanted = parse(r.body());
                if (wanted == null) {
                    LOG.debugf("SSBJCA0040: ignoring a %s message of group %s on %s: no priority from 0 to 255 in it",
                            messageType, r.groupId(), queue);
                } else if (!wanted.equals(current.get(r.groupId()))) {
                    session.setPriority(r.groupId(), wanted);
                    current.put(r.groupId(), wanted);
                }
            }
        }
        prioritised.retainAll(current.keySet());
        prioritised.addAll(current.keySet());
    }

    /**
     * @param group a conversation group
     * @return whether it had a priority at the last scan (or since it was set through this activation)
     */
    boolean hasPriority(UUID group) {
        return prioritised.contains(group);
    }

    /** @param group a group that got a priority outside a scan */
    void prioritised(UUID group) {
        prioritised.add(group);
    }

    /** @param group a group whose priority was removed */
    void forget(UUID group) {
        prioritised.remove(group);
    }

    /**
     * @param body {@code <priority>n</priority>}, any root element whose text is n, or the number alone
     * @return n, or null when the body holds no number from 0 to 255
     */
    static Integer parse(byte[] body) {
        String text;
        try {
            Document doc = Xml.parse(body);
            text = doc.getDocumentElement().getTextContent();
        } catch (SAXException notXml) {
            text = new String(body, StandardCharsets.UTF_8);
        }
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 0 && n <= 255 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
