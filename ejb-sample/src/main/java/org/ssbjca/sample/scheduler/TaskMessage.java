package org.ssbjca.sample.scheduler;

import org.ssbjca.api.BrokerMessage;
import org.ssbjca.sample.Xml;
import org.w3c.dom.Element;

/**
 * The bodies of the scheduler's messages, after seed 001's {@code <Command LogID="..." SQL="..."/>}:
 * {@code AsyncSent} carries {@code <task scheduler="..." no="3" stage="100" work="1010">name</task>}, and
 * {@code AsyncDone} answers {@code <done scheduler="..." no="3">OK</done>}.
 *
 * @param schedulerId the scheduler (the initiator's conversation handle)
 * @param taskNo the task's number in its scheduler
 * @param stage the task's stage
 * @param workMillis how long it works
 * @param name the task's name
 */
record TaskMessage(String schedulerId, int taskNo, int stage, int workMillis, String name) {

    static final String SENT = "AsyncSent";
    static final String DONE = "AsyncDone";

    String toXml() {
        return "<task scheduler=\"" + schedulerId + "\" no=\"" + taskNo + "\" stage=\"" + stage + "\" work=\""
                + workMillis + "\">" + Xml.escape(name) + "</task>";
    }

    static TaskMessage of(BrokerMessage m) {
        Element e = m.bodyAsXml().getDocumentElement();
        return new TaskMessage(e.getAttribute("scheduler"), Integer.parseInt(e.getAttribute("no")),
                Integer.parseInt(e.getAttribute("stage")), Integer.parseInt(e.getAttribute("work")),
                e.getTextContent());
    }

    static String doneXml(String schedulerId, int taskNo, String outcome) {
        return "<done scheduler=\"" + schedulerId + "\" no=\"" + taskNo + "\">" + Xml.escape(outcome) + "</done>";
    }

    /** @return the task number an AsyncDone reports */
    static int doneTaskNo(BrokerMessage m) {
        return Integer.parseInt(m.bodyAsXml().getDocumentElement().getAttribute("no"));
    }
}
