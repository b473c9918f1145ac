package org.ssbjca.backend.portable;

import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.Validation;
import org.ssbjca.support.Xml;
import org.xml.sax.SAXException;

/** Checks a body against its message type's VALIDATION, as Service Broker does when the message arrives. */
final class BodyValidator {

    private BodyValidator() {
    }

    static void check(String messageType, Validation validation, byte[] body) {
        boolean empty = body == null || body.length == 0;
        if (validation == Validation.EMPTY && !empty) {
            throw new BrokerException("message type '" + messageType + "' has VALIDATION = EMPTY but the body has "
                    + body.length + " bytes");
        }
        if (validation == Validation.WELL_FORMED_XML && !empty) {
            try {
                Xml.parse(body);
            } catch (SAXException e) {
                throw new BrokerException("message type '" + messageType
                        + "' has VALIDATION = WELL_FORMED_XML but the body is not well-formed XML: " + e.getMessage(),
                        e);
            }
        }
    }
}
