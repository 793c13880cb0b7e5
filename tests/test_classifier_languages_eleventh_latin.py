"""Issue #45's eleventh round, the rules for German, Spanish, French and Portuguese
(docs/interruptions.md, "Eleventh round: the rules"): families by form, each with its form and
the negated, later, conditional or asked variants that must stay what they are. New messages,
none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify


# A bare acknowledgement of one or two words, with punctuation or an emoji, is OTHER by a rule
# of its language's table, which the model does not override; asked ("ja?") it is not one, and
# an acknowledgement before a go leaves the go a go.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ja", "de-remark"),
        ("Jo!", "de-remark"),
        ("alles klar!", "de-remark"),
        ("passt 👍", "de-remark"),
        ("Ja klar.", "de-remark"),
        ("sí", "es-remark"),
        ("Vale.", "es-remark"),
        ("dale!", "es-remark"),
        ("sí, vale 👍", "es-remark"),
        ("oui", "fr-remark"),
        ("Ouais !", "fr-remark"),
        ("d'accord.", "fr-remark"),
        ("ça marche 👍", "fr-remark"),
        ("beleza", "pt-remark"),
        ("Tá.", "pt-remark"),
        ("blz, valeu!", "pt-remark"),
        ("valeu 👍", "pt-remark"),
    ],
)
def test_a_bare_acknowledgement_is_other_by_its_table(message: str, rule: str) -> None:
    found = classify(message)
    assert (found.type, found.rule) == ("OTHER", rule), found


# Words that show no language on their own ("jep", "klar", "sim", "show") are read by the
# English rules: OTHER by the fallback, which no model reads for a message in English.
@pytest.mark.parametrize("message", ["jep.", "klar", "sim", "show!", "ok 👍"])
def test_an_acknowledgement_no_table_reads_is_other(message: str) -> None:
    assert classify(message).type == "OTHER", classify(message)


@pytest.mark.parametrize(
    "message",
    [
        "ja, weiter",
        "Jo, mach weiter.",
        "sí, sigue",
        "dale, sigue con el parser",
        "dale con eso",
        "dale nomás",
        "oui, continue",
        "d'accord, continue le parser.",
        "beleza, continua",
        "Fechou, pode seguir com o endpoint.",
    ],
)
def test_an_acknowledgement_before_a_go_leaves_the_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)


@pytest.mark.parametrize("message", ["ja?", "¿sí?", "tá?", "oui ?", "ça marche pas"])
def test_an_acknowledgement_asked_or_negated_is_not_one(message: str) -> None:
    assert not classify(message).rule.endswith("-remark"), classify(message)


@pytest.mark.parametrize("message", ["ja, aber warte", "sí, pero espera", "oui, mais attends"])
def test_an_acknowledgement_then_a_hold_is_the_hold(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER" and not found.rule.endswith("-remark"), found


# A go said after a remark, praise, a step or news, with a go-verb the tables lacked ("setz ihn
# um", "als Nächstes X", "tira con X", "métele caña a X", "déroule-le", "passe à X", "parte pro
# X", "volta pro X", "pode ir em frente", "mete bronca no X", "manda brasa"); and a question,
# then the go (the last clause decides). Negated, later, conditional or asked, it is not a go.
@pytest.mark.parametrize(
    "message",
    [
        "Der Entwurf fürs Caching passt, setz ihn um.",
        "Gute Idee mit dem Retry, setzen Sie das Konzept jetzt um.",
        "Sauber gemacht beim Parser. Als Nächstes bitte die Migration.",
        "Bitte fahren Sie fort, der Kunde hat zugestimmt.",
        "Warum wartest du? Bau den Importer zu Ende.",
        "Prüf kurz die Logs und arbeite dann am Exporter weiter.",
        "Ya aprobaron el diseño, tira con la API de pagos.",
        "Venga, tira para adelante con el backend.",
        "Métele caña al módulo de facturas.",
        "¿Por qué te paraste? Tira con el chart.",
        "Ton approche pour le cache est bonne, déroule-la.",
        "Beau travail sur le parser. Passe maintenant à l'export CSV.",
        "Reprise de la tâche, merci.",
        "O deploy passou. Parte pro endpoint de reembolso.",
        "A VPN voltou, volta pro módulo de relatórios.",
        "Entendi o motivo. Pode ir em frente.",
        "Agora mete bronca no parser das notas fiscais.",
        "Layout aprovado, manda brasa.",
        "Quem disse pra parar? Vai com o Terraform aí.",
        "Confere se o worktree tá limpo e depois volta pro parser.",
        "Die Tests laufen wieder. Wir machen beim Warenkorb weiter.",
        "Die Konflikte sind gelöst, übernimm wieder.",
        "Reprenez, s'il vous plaît ; le client a validé.",
        "Listo el hotfix, regresa a la pantalla de login.",
    ],
)
def test_a_go_after_a_remark_a_step_or_a_question_is_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)


@pytest.mark.parametrize(
    "message",
    [
        "Setz ihn nicht um.",
        "Setz den Plan morgen um.",
        "Setzt du den Plan um?",
        "Als Nächstes bitte nicht die Migration.",
        "Bau den Importer nach dem Meeting zu Ende.",
        "Setz den Plan um, sobald die CI grün ist.",
        "No tires con el deploy todavía.",
        "Tira con el deploy mañana.",
        "¿Tiro con el deploy?",
        "Ne déroule pas le plan.",
        "Déroule-le demain.",
        "Passe au crible le journal de la tâche.",
        "Tu passes à l'export ?",
        "Não volta pro parser ainda.",
        "Volta pro parser amanhã.",
        "Volta pro parser quando o CI passar.",
        "O `resume()` do player não volta pra posição onde parou.",
        "Wir machen morgen beim Warenkorb weiter.",
        "Reprenez demain.",
        "No regreses a la pantalla de login.",
        "El test vuelve a fallar en CI.",
    ],
)
def test_the_same_go_negated_later_conditional_or_asked_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# The status asked as an instruction or a bare noun ("sag nur, ob es fertig ist", "dis-moi
# juste si c'est fini", "je veux juste savoir où t'en es", "me põe a par", "Tagesbilanz?",
# "Bilan de la journée ?"); a question about something else, or a task, stays what it is.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Keine Details, sag mir einfach, ob der Export fertig ist.", "STATUS_REQUEST"),
        ("Lass den Code, sag mir nur, wo du gerade stehst.", "STATUS_REQUEST"),
        ("Kurze Bilanz?", "STATUS_REQUEST"),
        ("Sag mir, ob die Regex auch Umlaute kann.", "QUESTION"),
        ("Schreib eine Bilanz der Kosten in die README.", "OTHER"),
        ("Pas de détails, dis-moi seulement si le build est passé.", "STATUS_REQUEST"),
        ("Laisse tomber le code, je veux savoir où tu en es.", "STATUS_REQUEST"),
        ("Bilan de la matinée ?", "STATUS_REQUEST"),
        ("Dis-moi si la regex gère les accents.", "QUESTION"),
        ("Me põe a par do deploy, cheguei agora.", "STATUS_REQUEST"),
        ("Me coloca a par, entrei agora na daily.", "STATUS_REQUEST"),
    ],
)
def test_the_status_asked_as_an_instruction_or_a_noun(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Holds and mentions: "stay on stand-by" is a hold; a progress indicator named in a statement (a
# bug) is a mention, not a status request; a go held until a check of the protocol's state or a
# run of the audit asks for that check (AUDIT). Asked, or held for something else, they stay
# what they were.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Quédate en stand-by hasta que Luis suba las traducciones.", "OTHER"),
        ("Fica em stand-by até o Pedro revisar o layout.", "OTHER"),
        ("Reste en stand-by jusqu'à ce que Léa valide la maquette.", "OTHER"),
        ("Bleib im Stand-by, bis Jonas die Assets hochlädt.", "OTHER"),
        ("La barra de progreso del import se queda en 99%.", "OTHER"),
        ("A barra de progresso do upload trava em 80%.", "OTHER"),
        ("Le spinner de chargement de la carte ne s'arrête jamais.", "OTHER"),
        ("Der Fortschrittsbalken beim Upload bleibt bei 80% hängen.", "OTHER"),
        ("No sigas hasta que hayas verificado los worktrees.", "AUDIT"),
        ("Não continua até conferir os locks.", "AUDIT"),
        ("Ne continue pas avant d'avoir vérifié les verrous.", "AUDIT"),
        ("Mach nicht weiter, bevor du die Locks geprüft hast.", "AUDIT"),
        ("No sigas hasta que Ana suba los assets.", "OTHER"),
        ("Mach nicht weiter, bevor Jonas die Assets hochlädt.", "OTHER"),
    ],
)
def test_holds_mentions_and_a_go_held_for_a_check(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize(
    "message",
    ["¿La barra de progreso del import se queda en 99%?", "Quedaste en stand-by?"],
)
def test_a_progress_indicator_or_a_stand_by_asked_is_not_a_remark(message: str) -> None:
    assert classify(message).type != "OTHER", classify(message)


# A question about what a change will do is a question, not a status request; asking whether
# the change is done stays a status request, and the protocol's own state is not this form.
# "Go on after, but first explain X" asks the explanation first: a question.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Bleibt die API nach dem Upgrade kompatibel?", "QUESTION"),
        ("Löscht der Merge die Übersetzungen von Tim?", "QUESTION"),
        ("Ist der Rebase durch?", "STATUS_REQUEST"),
        ("Le merge va-t-il casser les tests de Paul ?", "QUESTION"),
        ("Les routes vont rester les mêmes après la mise à jour ?", "QUESTION"),
        ("Le rebase est fini ?", "STATUS_REQUEST"),
        ("A atualização vai quebrar os testes do Tiago?", "QUESTION"),
        ("Continue après, mais d'abord explique-moi le cache.", "QUESTION"),
        ("Reprends ensuite, mais d'abord explique-moi pourquoi le test échoue.", "QUESTION"),
        ("Mach danach weiter, aber erst erklär mir den Cache.", "QUESTION"),
    ],
)
def test_what_a_change_will_do_and_first_the_explanation(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)
