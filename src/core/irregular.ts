/**
 * Irregular English inflections the Porter stemmer cannot see (went/go, drove/drive,
 * children/child): a closed, language-level list, not tuned to any data set (forms that are
 * mostly another word, like "left", are left out). Each form maps to its lemma before stemming.
 * Shared by the facts' index terms and the conflict detector's stems, so "drove" meets "drive" in both.
 */
export const IRREGULAR: Readonly<Record<string, string>> = buildIrregular()

function buildIrregular(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const group of (
    'be:was,were,been,being|go:went,gone,goes|do:did,done,does|have:had,has|make:made|take:took,taken|get:got,gotten|' +
    'give:gave,given|see:saw,seen|come:came|know:knew,known|think:thought|tell:told|say:said|find:found|feel:felt|' +
    'meet:met|buy:bought|bring:brought|teach:taught|catch:caught|fight:fought|seek:sought|run:ran|' +
    'begin:began,begun|drink:drank,drunk|sing:sang,sung|swim:swam,swum|ride:rode,ridden|write:wrote,written|' +
    'drive:drove,driven|eat:ate,eaten|fall:fell,fallen|grow:grew,grown|draw:drew,drawn|fly:flew,flown|' +
    'throw:threw,thrown|wear:wore,worn|break:broke,broken|choose:chose,chosen|speak:spoke,spoken|steal:stole,stolen|' +
    'wake:woke,woken|forget:forgot,forgotten|hide:hid,hidden|bite:bit,bitten|rise:rose,risen|shake:shook,shaken|' +
    'sell:sold|send:sent|spend:spent|build:built|lend:lent|lose:lost|keep:kept|sleep:slept|sweep:swept|weep:wept|' +
    'hold:held|stand:stood|understand:understood|sit:sat|win:won|hear:heard|pay:paid|lay:laid|lead:led|' +
    'hang:hung|dig:dug|stick:stuck|strike:struck|light:lit|feed:fed|flee:fled|mean:meant|deal:dealt|' +
    'child:children|person:people|man:men|woman:women|foot:feet|tooth:teeth|mouse:mice|goose:geese'
  ).split('|')) {
    const [lemma, forms] = group.split(':') as [string, string]
    for (const f of forms.split(',')) out[f] = lemma
  }
  return out
}
