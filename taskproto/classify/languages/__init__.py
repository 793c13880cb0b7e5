"""The languages besides English that interruptions are classified in, and which a message uses.

Every message gets the English rules (``interruption_rules.py``): developers mix English words
into every language. A message that shows another language's words (German, Spanish, French,
Brazilian Portuguese) or script (Japanese kana; Chinese characters, which Japanese shares) also
gets that language's rules, put before the English defaults, so "resume tu progreso" is a status
request before English reads "resume". Each language's table is a module of this package,
imported the first time a message in that language comes.

The cost for an English message is one scan of its words against a set of marker words: no
language table is imported and no pattern of theirs compiled.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import import_module

from taskproto.classify.interruption_rules import DEFAULT_RULES, Rule

# Not `from typing` (its import costs more than the classifier's), and the tables' module is
# imported with the first table: an English message that is not a go with words beside it never
# imports one.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.classify.gates import Gated
    from taskproto.classify.languages.table import Language

__all__ = [
    "CODES",
    "ENGLISH",
    "approves",
    "clause_patterns",
    "courteous",
    "deferred",
    "detect",
    "holds",
    "is_default",
    "language",
    "match",
    "may_slip",
    "retracted",
    "second_opinion",
    "with_rules",
]


# Module of each language; when two show as many marker words, their rules are tried in this order.
_MODULES = {
    "de": "de",
    "es": "es",
    "fr": "fr",
    "pt-BR": "pt_br",
    "ja": "ja",
    "zh-Hans": "zh_hans",
}
CODES = tuple(_MODULES)
# English's own table: no rules (English's are the defaults), only the fields that hold a go
# (``later``, ``conditions``, ``retractions``: languages/en.py). Not a code a message is detected
# in: an English message has none.
ENGLISH = ("en",)
# English go words a message in another language may gloss a noun of its own with, in brackets
# or quotes ("简历(resume)", "Lebenslauf (resume)"): a noun then (safety.py)
GLOSSED = ("resume", "continue", "proceed", "go on", "keep going", "carry on")

# Words that show a language, accents folded (below). Function words and the words the rules
# look for; never an English word ("die", "was", "no", "on", "continue" are left out), so an
# English message never loads a table.
_MARKERS = {
    "de": """
        aber alle alles als auf aufgehort aufhoren augenblick aus bei beim bevor bis bisher
        bist bitte bloss brauchst braucht danach danke dann darfst das dass dein deine dem der
        dich doch dort durch ein eine einem einen einer erklar erklare erklaren erst
        erstmal etwas euch euer fahr fahre fass fehlt fertig fortfahren fortschritt
        fortsetzen frage freigegeben fuhr fuhre fur gehts gemacht geht genommen gerade
        geschafft gibt gib gibts hast hatte heute hor horen ich ihr ist ja jetzt jo kannst
        kein keine konnen konntest kurz lass lauft loslegen mach mache machen machst mal
        meinst mich mir mit morgen muss nach nicht nichts noch oder passt pausier pruf prufe
        schau schon seid seit sicher sind sollte sollten stell stopp uberpruf uberprufe und
        uns unterschied verstehe verstoss verstossen vom von vor wann warte warten warum weiter
        weitermachen welche welchem welcher wenn wer werden wie wieso wir wird wo woran zu
        zum zur zuruck zusammen setz setze arbeit arbeite arbeitest fang hangst haengst fest
        kommt erzahl neues verwaist verwaiste morgen zwischenstand neuigkeiten
        den des einen letzte letzten letzter nachste nachsten naechste naechsten neue neuen
        alte alten diese diesen dieser dieses nur auch sehr mehr immer wieder hier ob weil
        sondern uber ohne gegen zwischen statt nimm nutze benenn schreib zeig kann soll sollst
        willst wurde sein haben habe hab nein nee bisschen eben gerne interessant prima
        richtig falsch fehler datei funktion zeile ordner anderen andere sauber kaputt
        erledigt gepusht gemergt gemerged dinge sache verifizier jup unsere unser euren
        kommst kommt voran weitergekommen vorangekommen irgendwer jemand geklappt
        montag dienstag mittwoch donnerstag freitag samstag sonntag uhr hau rein bleib dran
        nimm weiterarbeiten tagesbilanz bilanz checken kontrollieren weida weider weita moch guad
        zweifel verstehen nervt aufgerufen nirgends
        chasch chaisch chonntsch chonntisch wiiter wiitermache wiiterschaffe nonig jetz
    """,
    "es": """
        adelante ahora al algo algun alguna alguno antes aprobado aqui asegurate aun audita
        auditoria avanzas bien bueno comprueba continua continuar continuas corre cual cuales
        cuando cuanto cuantos dale dame deberiamos deja dejaste  desde despues detente
        donde ella ellos entiendo esa ese eso espera esta estado estamos estan estas este esto
        estoy falta gracias hace haces hasta haz hecho las lista listo llevara los luego mas
        momento muy nada necesita ningun ninguna nomas novedad novedades nuestro otra otro
        para paraste pares pasa pero podemos por porfa porque pregunta progreso prosigas
        prosigue puedes punto que quieres quien retoma revisa seguir sigas sigamos sigue
        siguiendo tambien tarea tengo terminaste termino tiene todavia tus una usar vale
        valida vamos venga verifica vuelve hiciste acabaste pasaron queda quedan faltan
        orale continuale continuen continuemos reanuda ejecuta explica explicame aclara duda
        podrias chequea detente sigan avanzas
        ya está qué cómo dónde cuándo cuánto cuántos sí más aún también después corrió
        terminó pasó quedó falló rompió hiciste abriste rápido protocolo violaciones
        cumple avances noticias fijate empieza arranca comienza cuentame trabado atascado
        pasale trabaste toca andas huérfanos huérfano violó seguimos quieto
        el del lo le se hay mi nos asi mal tienes tengo hago puedo puede podes quiero quieres
        necesito gusta buen buena trabajo vuelvo siempre segui sigo sigues dejame renombra
        funcion archivo nombre mensaje entiende interesante okey bucle salida codigo
        exactamente deberia devuelve ruidoso demasiado nueva nuevo luz verde rojo mergeo
        quedo pusheaste subiste ahorita oye mira esto detengas pausa
        funciono funcionaron terminaron terminamos acabo acabamos rompio rompimos avanzo
        avanzaste avanzamos empezo empezaste empezamos subio salio salieron quedaron hizo
        arreglaste arreglo cuadran coinciden corriendo fallando trabajando avanzando
        lunes martes miercoles jueves viernes sabado domingo
        llegamos llegas llegaremos alcanzamos metele ponte echale prosiga siguele
        resumeme resumime resumelo resumas lineas frases parrafo parrafos vinetas cinco
        tiempo pudiste alcanzaste llegaste conseguiste lograste caduco expiro
        convenciste hazlo tira turno shipealo pregunto explicandome contandome
        seguile seguila seguilo alante palante lante recapitula chirria quisiera comprender dudas
        actualizame actualizanos informame ponme ponnos currar chambear laburar camellar pillado
        supongo
    """,
    "fr": """
        accord actuellement  allez arrete arretez arreter assure attendez attends au aucun
        aucune aussi aux avancement avant avec avez  ce cela ces cette comme continuez
        controle dans des deux dois donc donne ensuite etat etes etre fais faire fait fichier
        fini ils je jusqu les leur lui mais merci mes moi ne nous nouveau oui ou parfait pas
        peux plait  pourquoi poursuis poursuivre puis qu quand quel quelle quelque qui
        quoi reprendre reprends reste sais ses seulement sont stp sur ta tache tes toi
        toujours tous tout tu une va vas verifie vers veux voila vous
        pushe mergee deploye commite demain termine statut continuer poursuivre explique
        expliquer lance audite controler aujourd quoi neuf passe etape suivante valide prete
        pret avance ça où à déjà très été voilà
        effectue combien temps tourné terminé passé lancé réussi échoué planté mergé
        poussé déployé testé corrigé validé prêt prête tâche état bloqué coincé
        raconte commence ensuite statut conforme finie terminée mergée passée ouais fonce
        orphelin orphelins allons bientôt coincé réussi violé
        le est sont etait avoir faut peut devrait devrais doit ici encore joli jolie beau
        travail bon ajoute renomme utilise enleve supprime laisse relu roule marche
        exactement retrocompatible indicateur barre sortie vrai erreur incomprehensible vert
        verte rouge passent apres pendant depuis chez entre elle cet bien
        ouvert commence integre corrige ecrit pousse avance quelqu autre aimerais voudrais
        comprendre logique doute doutes agace jamais appelee
        lundi mardi mercredi jeudi vendredi samedi dimanche
        reprend reprenons desole desolee oublie oubliez retourne boulot attaque attaquer
        surtout maintenant presque remets remet sera serons seras bosse bosser bref
        pousser branche reussi continuons reprenez poursuivez bilan journee
        deroule envoie enchaine rebranche replonge fin attendre patienter
        pkoi prq pourkoi choisi mentionne parles
    """,
    "pt-BR": """
        agora ainda algo algum alguma andamento antes aqui aquele aquilo  beleza  bora
        cade checa comigo confere consegue continua continuar dar deixa depois deu devemos
        duvida ela ele entao entendi essa esse esta estamos estao estou faz fazer feito ficou
        foi funciona garante gente isso ja manda mais mas mesmo meu minha muito nao  nem
        nessa nesse nos nossa nosso numa obrigado onde outra outro para parou pega pelo pode
        podemos pois por porque pra prossegue prossiga pronto qual quando quanto quantos que
        quem roda segue seguir sei ser seu sua ta tambem tem terminou tipo tudo uma vai valeu
        vamos verifica voce volta
        violou auditoria audita prosseguir retoma tocar barco frente concluiu passaram
        novidade novidades andamento explica esclarece pare pausa não você está é já tá só
        até lá três progresso
        executa fala resultado travado travou conta algum avanço notícia começa comece
        acordo protocolo compara acabou empacou parcial sinal novidades arquivo valida
        como pfv rápido já tá você não também está terminou rodou abriu enquanto tava tavam
        da na pelo pela vc pq bom trabalho gostei volto minutos mandou bem aham vez saida
        nova novo interessante segura pouco pouquinho pensando passa deveriamos tarefa mexer
        codar espera espere olha estado
        funcionou funcionaram terminou terminamos terminaram acabamos passou passaram quebrou
        quebramos avancou avancamos
        voltou voltaram comecou comecamos subiu subiram deu fez fizemos mudou conseguiu batem
        bate conferem sobrou sobraram segurando rodando falhando quebrando passando mexendo
        fazendo trabalhando andando arrumou corrigiu integrou colocou aprovado aprovada aprovo
        segunda terca quarta quinta sexta sabado domingo
        rolou esquece esqueca pergunta tocando adiantando precisa esperar indo ajuda entender
        termina sequencia baile toca retome resuma resumam linhas topicos paragrafo paragrafos
        cinco seguimos continuidade saiu sairam hoje amanha importou importaram
        progrediu progrediram avancou avancaram evoluiu evoluiram
        continuam existem percentual conclusao expirou sumiu sumiram pras fechou
        simbora vambora partiu pulou finalizou finalizaram emenda poderia
        aponta apontando certo certa errado errada apanhado
        atualiza chegou suponho presumo trava presa preso valendo sessao dono bronca
        enrolacao prezado prosseguimento deixou barrou pegou resumo desce
    """,
}

_FOLD = str.maketrans(
    {
        **dict.fromkeys("àáâãäå", "a"),
        "ç": "c",
        **dict.fromkeys("èéêë", "e"),
        **dict.fromkeys("ìíîï", "i"),
        "ñ": "n",
        **dict.fromkeys("òóôõö", "o"),
        **dict.fromkeys("ùúûü", "u"),
        **dict.fromkeys("ýÿ", "y"),
        "ß": "ss",
        "œ": "oe",
        "æ": "ae",
    }
)
# Words are what is left between ASCII punctuation, digits and spaces (normalised text has no
# other punctuation a marker could touch): a translate and a split, cheaper than compiling a regex.
_NOT_WORDS = str.maketrans(dict.fromkeys("0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", " "))
_ANY_LATIN = frozenset(" ".join(_MARKERS.values()).split())
_LETTERS = {"de": "äöüß", "es": "ñ", "fr": "èêàùâîôûëïœ", "pt-BR": "ãõ"}
# Articles and conjunctions too short or too English to show a language ("o" of "I/O", "die",
# "on", "en"): they count only for a language a marker already shows, so they tell Spanish from
# Portuguese ("o que falta?") and never make an English message load a table.
_WEAK = {
    "de": "die was an am im so es wo da du",
    "es": "el y un en es su con sin son no te la",
    "fr": "on en et un du l c j d s n m t la ma mon pour",
    "pt-BR": "o os um e em com do dos no ao",
}
_latin: dict[str, frozenset[str]] = {}  # each language's markers, made when a marker is seen
_weak: dict[str, frozenset[str]] = {}


def detect(text: str) -> tuple[tuple[str, ...], int, str]:
    """The languages besides English that normalised ``text`` shows, surest first; how many of
    them lead (show as many marker words as the first); and the text as their rules read it
    (accents folded: "continúa" -> "continua", "prüf" -> "pruf")."""
    words = set(text.translate(_NOT_WORDS).split())
    hints: dict[str, int] = {}
    if not text.isascii():
        if max(text) >= "\u3040":
            found = _cjk(text)
            if found:
                return found, 1, text
        # letters only one of these languages writes: "weiter so, schön" is German
        hints = {code: sum(char in text for char in chars) for code, chars in _LETTERS.items()}
        text = text.translate(_FOLD)
        words.update(text.translate(_NOT_WORDS).split())  # most markers are folded ("ça": not)
    if words.isdisjoint(_ANY_LATIN) and not any(hints.values()):
        return (), 0, text
    if not _latin:
        _latin.update((code, frozenset(markers.split())) for code, markers in _MARKERS.items())
        _weak.update((code, frozenset(weak.split())) for code, weak in _WEAK.items())
    scores: dict[str, int] = {}
    for code, markers in _latin.items():
        score = len(words & markers) + hints.get(code, 0)
        scores[code] = score + len(words & _weak[code]) if score else 0
    codes = sorted((code for code in _latin if scores[code]), key=lambda c: -scores[c])
    lead = sum(scores[code] == scores[codes[0]] for code in codes)
    if lead == 1 and len(codes) > 1 and scores[codes[0]] >= scores[codes[1]] + 2:
        # one language leads by two marker words: the words a neighbour shares ("para", "que",
        # "se") do not let the neighbour's table decide (docs/interruptions.md, "Tenth round")
        codes = codes[:1]
    if scores[codes[0]] == 1 and len(words) <= 3:
        # a short message one word of which shows the language: the word may be one two
        # languages share ("leg los": German, "los" Spanish), so the other tables are tried
        # too, after (their patterns compiled only then: a longer message does not pay for them)
        codes.extend(code for code in _latin if not scores[code])
    return tuple(codes), lead, text


def _cjk(text: str) -> tuple[str, ...]:
    """Japanese if ``text`` has kana; Chinese, or Japanese in kanji alone, if it has Chinese
    characters. (A regex of the Chinese range costs ~2 ms to compile: more than this loop.)"""
    han = False
    for char in text:
        if "\u3040" <= char <= "\u30ff" or "\uff66" <= char <= "\uff9f":
            return ("ja",)
        han = han or "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"
    return ("zh-Hans", "ja") if han else ()


SLIP_WORDS = {  # go words a short message may hold with a slip (classify/slips.py; may_slip)
    "de": "weiter weitermachen weiterarbeiten fortfahren fortsetzen loslegen",
    "es": "sigue continua continue continuen prosigue retoma reanuda adelante sigamos seguimos"
    " continuemos prosiga siguele continuale",
    "fr": "continue continuez continuons reprends reprenez reprenons poursuis poursuivez",
    "pt-BR": "continua continue prossiga prossegue retoma retome segue seguimos",
}
_skeletons: dict[str, bool] = {}  # each go word (True), and each with one letter left out


def may_slip(normal: str) -> bool:
    """Whether short ``normal`` may be a go with a slip: CJK, or a word one edit from a go."""
    if not normal.isascii() and _cjk(normal):  # a character of slips.py's same-sound slips
        return not frozenset("ぢじず会绪序叙蓄及既记计纪ぞさ近").isdisjoint(normal)
    for go in " ".join(SLIP_WORDS.values()).split() if not _skeletons else ():
        _skeletons.update({go[:i] + go[i + 1 :]: False for i in range(len(go))} | {go: True})
    found = normal.translate(_NOT_WORDS).split()  # slips.py reads three words at most
    words = [w for w in found if not _skeletons.get(w, len(w) < 4)] if len(found) <= 3 else []
    return any(w[:i] + w[i + 1 :] in _skeletons for w in words for i in range(len(w) + 1))


_loaded: dict[str, Language] = {}


def language(code: str) -> Language:
    """The table of language ``code`` (one of CODES, or English's), imported on first use."""
    found = _loaded.get(code)
    if found is None:
        found = import_module(f"{__name__}.{_MODULES.get(code, code)}").LANGUAGE
        _loaded[code] = found
    return found


_ENGLISH = frozenset(rule.name for rule in DEFAULT_RULES)
# (id of the rules given, codes) -> (those rules, the rules with the languages' put in). The rules
# given are kept so their id is not reused while the entry lives.
_merged: dict[tuple[int, tuple[str, ...]], tuple[Sequence[Rule], tuple[Rule, ...]]] = {}


def with_rules(rules: Sequence[Rule], codes: tuple[str, ...]) -> tuple[Rule, ...]:
    """``rules`` with the tables of ``codes`` put before the first English default: after the
    user's own rules (which win over every default), before the English defaults."""
    key = (id(rules), codes)
    hit = _merged.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    cut = next((i for i, rule in enumerate(rules) if rule.name in _ENGLISH), len(rules))
    extra = tuple(rule for code in codes for rule in language(code).rules)
    merged = (*rules[:cut], *extra, *rules[cut:])
    if len(_merged) >= 64:  # a long-lived process given new rule lists (config reloads)
        _merged.clear()
    _merged[key] = (rules, merged)
    return merged


def match(clause: str, rules: Sequence[Rule]) -> Rule | None:
    """The first of ``rules`` (a message in one of these languages) that matches ``clause``, as
    compiling each in turn finds it; but a pattern is compiled only once a clause holds the words
    every match of it holds (``gates.py``), so a message compiles few of its table's patterns."""
    from taskproto.classify import gates

    return gates.first(clause, rules)


# How clauses are cut, and the tables' fields searched in them: fields.py, imported for a
# message in one of these languages only (each pattern compiled once a text holds its words).
def clause_patterns(
    codes: tuple[str, ...], split: str, fillers: str
) -> tuple[re.Pattern[str], Gated]:
    """``fields.clause_patterns``: the clause splitter and leading-filler pattern of ``codes``."""
    from taskproto.classify.languages import fields

    return fields.clause_patterns(codes, split, fillers)


def courteous(codes: tuple[str, ...], normal: str) -> str:
    """``fields.courteous``: ``normal`` without the courtesies of ``codes``."""
    from taskproto.classify.languages import fields

    glossed = "(" in normal or "'" in normal  # an English go word glossing a noun ("简历(resume)")
    if glossed and any(word in normal for word in GLOSSED):
        from taskproto.classify.languages.safety import unglossed

        normal = unglossed(normal)
    return fields.courteous(codes, normal)


def deferred(codes: tuple[str, ...], clause: str, alone: bool = False) -> str | None:
    """``fields.deferred``: the first of ``codes`` whose time or condition ``clause`` names."""
    from taskproto.classify.languages import fields

    return fields.deferred(codes, clause, alone)


def retracted(codes: tuple[str, ...], tail: str) -> str | None:
    """``fields.retracted``: the first of ``codes`` in which ``tail`` takes a go back."""
    from taskproto.classify.languages import fields

    return fields.retracted(codes, tail)


def approves(codes: tuple[str, ...], clauses: Sequence[str]) -> bool:
    """``fields.approves``: whether a clause explicitly approves in one of ``codes``."""
    from taskproto.classify.languages import fields

    return fields.approves(codes, clauses)


def holds(codes: tuple[str, ...], clauses: Sequence[str], normal: str) -> bool:
    """Whether a message in the languages ``codes`` (its ``clauses``, its normalised text
    ``normal``) says a time, an event or a condition, or a retraction anywhere, or denies "go"
    itself: the model is not let make a go of it (a go the rules found was checked by its clause
    already)."""
    from taskproto.classify.languages import firm

    if firm.NO_GO.search(normal):
        return True
    from taskproto.classify.languages import safety

    if safety.stopped(codes, normal):  # a stop, keep-off or drop order the rules read no go in
        return True
    return retracted(codes, normal) is not None or any(
        deferred(codes, clause) is not None for clause in clauses
    )


def is_default(codes: tuple[str, ...], rule: str) -> bool:
    """Whether ``rule`` is the fallback, an English default or a rule of the tables of ``codes``
    (not a user's own rule, which nothing second-guesses)."""
    if rule == "fallback" or rule in _ENGLISH:
        return True
    return any(r.name == rule for code in codes for r in language(code).rules)


def second_opinion(
    codes: tuple[str, ...], rule: str, rule_type: str, normal: str, clauses: Sequence[str] = ()
) -> tuple[str, str, float] | None:
    """The type, deciding rule and confidence the model (``model.py``) gives a message in the
    languages ``codes`` that the default rule or fallback ``rule`` gave ``rule_type``, when it
    replaces the rules' decision; None when it does not, and always for a user's own rule, and
    never a go of a message that names a later time, a condition or a retraction (``holds``:
    its ``clauses`` and ``normal`` text)."""
    if not is_default(codes, rule):
        return None
    model = import_module(f"{__name__}.model")
    revised: tuple[str, float] | None = model.revise(rule, rule_type, normal)
    if revised is None:
        return None
    found, sure = revised
    if found == "RESUMPTION" and holds(codes, clauses, normal):
        return None
    from taskproto.classify.languages import firm

    if firm.kept(rule, found, len(clauses), normal):
        return None
    return found, f"{codes[0].split('-')[0].lower()}-model", round(sure, 3)


def veto(codes: tuple[str, ...], normal: str, rest: str) -> tuple[str, str, float] | None:
    """OTHER, rule ``<lang>-veto``, when the model (``model.py``) is sure that ``rest``, a
    message's normalised text ``normal`` with the words of the go the rules found taken out,
    holds the go (a condition, a later time, a retraction, a mention) and that the message is
    OTHER; None otherwise, and when nothing but the go was said (the model is not loaded)."""
    if not any(c.isalnum() for c in rest):
        return None
    model = import_module(f"{__name__}.model")
    held: float | None = model.veto(normal, rest)
    if held is None:
        return None
    return "OTHER", f"{codes[0].split('-')[0].lower()}-veto", round(held, 3)
