package org.ssbjca.sample.priority;

import java.time.Instant;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.sample.Xml;
import org.w3c.dom.Element;

/**
 * The body of a {@code LongWorkloadRequest}, as in seed 000 ({@code <request time="..." spid="...">n</request>})
 * plus how long the work takes, so that the client (the demo, a test) chooses the delay:
 * {@code <request time="14:03:27.512" caller="demo" workload="100">7</request>}. A request may also name a hold
 * ({@code hold="..."}, see {@link WorkloadHolds}).
 *
 * @param number the request's number
 * @param time when the client sent it (local time of day, as printed)
 * @param caller who sent it
 * @param workloadMillis how long the service works on it
 * @param hold the hold to wait for before working, or null
 */
public record WorkloadRequest(int number, String time, String caller, int workloadMillis, String hold) {

    /** The message type. */
    public static final String TYPE = "LongWorkloadRequest";

    /**
     * @return a request sent now
     */
    static WorkloadRequest now(int number, String caller, int workloadMillis, String hold) {
        return new WorkloadRequest(number, Xml.time(Instant.now()), caller, workloadMillis, hold);
    }

    /** @return the XML body */
    public String toXml() {
        return "<request time=\"" + time + "\" caller=\"" + Xml.escape(caller) + "\" workload=\"" + workloadMillis
                + "\"" + (hold == null ? "" : " hold=\"" + Xml.escape(hold) + "\"") + ">" + number + "</request>";
    }

    /**
     * @param message a LongWorkloadRequest
     * @return its body
     */
    public static WorkloadRequest of(BrokerMessage message) {
        return of(message.bodyAsXml().getDocumentElement());
    }

    static WorkloadRequest of(Element e) {
        String hold = e.getAttribute("hold");
        return new WorkloadRequest(Integer.parseInt(e.getTextContent().trim()), e.getAttribute("time"),
                e.getAttribute("caller"), Integer.parseInt(e.getAttribute("workload")), hold.isEmpty() ? null : hold);
    }
}
