package org.ssbjca.backend.portable;

import java.io.ByteArrayInputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.Validation;
import org.xml.sax.helpers.DefaultHandler;

/** Checks a body against its message type's VALIDATION, as Service Broker does when the message arrives. */
final class BodyValidator {

    private static final ThreadLocal<DocumentBuilder> PARSER = ThreadLocal.withInitial(BodyValidator::newParser);

    private BodyValidator() {
    }

    static void check(String messageType, Validation validation, byte[] body) {
        boolean empty = body == null || body.length == 0;
        switch (validation) {
            case EMPTY:
                if (!empty) {
                    throw new BrokerException("message type '" + messageType
                            + "' has VALIDATION = EMPTY but the body has " + body.length + " bytes");
                }
                return;
            case WELL_FORMED_XML:
                if (empty) {
                    return;
                }
                try {
                    DocumentBuilder parser = PARSER.get();
                    parser.reset();
                    parser.setErrorHandler(new DefaultHandler());
                    parser.parse(new ByteArrayInputStream(body));
                } catch (Exception e) {
                    throw new BrokerException("message type '" + messageType
                            + "' has VALIDATION = WELL_FORMED_XML but the body is not well-formed XML: "
                            + e.getMessage(), e);
                }
                return;
            default:
        }
    }

    private static DocumentBuilder newParser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            return f.newDocumentBuilder();
        } catch (Exception e) {
            throw new IllegalStateException("no XML parser available", e);
        }
    }
}
