package org.ssbjca.sample.priority;

import java.io.Serializable;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.sample.Xml;
import org.w3c.dom.Element;

/**
 * The body of a {@code Response}, as in seed 000: the request wrapped in a {@code result} element that says when the
 * work was done and which reader did it ({@code spid} in the seed), e.g.
 * {@code <result reader="..." time="14:03:29.118"><request ...>7</request></result>}.
 *
 * @param request the request it answers
 * @param reader the reader (container thread) that did the work
 * @param time when the work was done
 * @param arrival the response's position in the client's queue ({@code queuing_order}): the order it came back in
 * @param xml the body as sent
 */
public record PriorityResponse(WorkloadRequest request, String reader, String time, long arrival, String xml)
        implements Serializable {

    /** The message type. */
    public static final String TYPE = "Response";

    /**
     * @return the body of the response to a request, done now by this thread
     */
    static String xml(WorkloadRequest request, String reader, String time) {
        return "<result reader=\"" + Xml.escape(reader) + "\" time=\"" + time + "\">" + request.toXml() + "</result>";
    }

    /**
     * @param message a Response
     * @return its body
     */
    static PriorityResponse of(BrokerMessage message) {
        Element result = message.bodyAsXml().getDocumentElement();
        Element request = (Element) result.getElementsByTagName("request").item(0);
        return new PriorityResponse(WorkloadRequest.of(request), result.getAttribute("reader"),
                result.getAttribute("time"), message.queuingOrder(), message.bodyAsText());
    }
}
